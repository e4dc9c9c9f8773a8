import { type FieldErrors, type ValidationResult } from './common.ts';

/**
 * The comment form (docs/product.md#validation-rules), shared by the article's comment island and
 * POST /api/blogs/:id/comment: name and comment required and non-blank after cleaning; contact
 * optional. Comments are plain text: nothing here parses or keeps HTML, the output side escapes it.
 */

export const COMMENT_LIMITS = { username: 60, comment: 5000, contact: 200 } as const;

export const COMMENT_MESSAGES = {
  /** The 400 answer's message; the fields name what is wrong. */
  invalid: 'Please check the comment form.',
  /** The form's blank check. */
  blank: 'Please write a comment and your name.',
  posted: 'Your comment was posted.',
  /** A 202 without a message of its own. */
  held: 'Thanks! Your comment is awaiting approval and will appear once a moderator has checked it.',
  /** Any failure the form cannot explain better (network, server error). */
  failed: 'Sorry, your comment could not be posted. Please try again in a moment.',
} as const;

export interface CommentFormInput {
  username?: unknown;
  comment?: unknown;
  contact?: unknown;
  /** The hidden field people leave empty (spam-rules.ts HONEYPOT_FIELD). */
  subject?: unknown;
  /** The signed time the form loaded (GET /api/comment-token); without it a comment is held. */
  form_token?: unknown;
}

export interface CommentValues {
  username: string;
  comment: string;
  contact: string | null;
}

// C0 controls except tab and newline, DEL, and C1 controls; carriage returns are handled first.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g;
// Bidirectional overrides can make a name or comment display as different text (Trojan Source).
const BIDI_CONTROL = /[\u202A-\u202E\u2066-\u2069]/g;

/** Removes characters that only hide or disguise text; keeps newlines (and tabs) in multi-line text. */
export function cleanText(raw: string, options: { multiline: boolean }): string {
  let text = raw.replace(/\r\n?/g, '\n').replace(CONTROL, '').replace(BIDI_CONTROL, '');
  if (!options.multiline) text = text.replace(/\s+/g, ' ');
  return text.trim();
}

const label = { username: 'Name', comment: 'Comment', contact: 'Contact' } as const;

function lengthOf(text: string): number {
  // Code points, so an emoji counts as one character as a reader would count it.
  let n = 0;
  for (const _ of text) n++;
  return n;
}

export function validateCommentInput(input: CommentFormInput): ValidationResult<CommentValues> {
  const errors: FieldErrors = {};
  const readString = (name: 'username' | 'comment' | 'contact', multiline: boolean, required: boolean): string | null => {
    const value = input[name];
    if (value === undefined || value === null) {
      if (required) errors[name] = `${label[name]} is required.`;
      return null;
    }
    if (typeof value !== 'string') {
      errors[name] = `${label[name]} must be text.`;
      return null;
    }
    const text = cleanText(value, { multiline });
    if (text === '') {
      if (required) errors[name] = `${label[name]} is required.`;
      return null;
    }
    if (lengthOf(text) > COMMENT_LIMITS[name]) {
      errors[name] = `${label[name]} must be at most ${COMMENT_LIMITS[name]} characters.`;
      return null;
    }
    return text;
  };
  const username = readString('username', false, true) ?? '';
  const comment = readString('comment', true, true) ?? '';
  const contact = readString('contact', false, false);
  return { values: { username, comment, contact }, errors };
}
