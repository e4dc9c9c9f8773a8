import { AppError, invalidInput } from '../errors.ts';
import { parseId } from '../../shared/ids.ts';
import { normalizeSearchText } from './search.ts';

/**
 * The rules for what a visitor may send: the article list query and the comment form. No database
 * access here; failures are AppErrors (400) that name the bad fields. The comment island keeps
 * its own copy of COMMENT_LIMITS, as client code must not import src/server.
 */

export const COMMENT_LIMITS = { username: 60, comment: 5000, contact: 200 } as const;

export const BLOG_LIST_DEFAULT_LIMIT = 50;
export const BLOG_LIST_MAX_LIMIT = 200;
const MAX_OFFSET = 1_000_000_000;

export interface BlogListQuery {
  categoryId: number | null;
  search: string | null;
  limit: number;
  offset: number;
}

function readWholeNumber(raw: string, min: number, max: number): number | null {
  if (!/^\d{1,10}$/.test(raw)) return null;
  const value = Number(raw);
  return value >= min && value <= max ? value : null;
}

/** GET /api/blogs?category=&search=&limit=&offset=: 400 with the bad fields named. */
export function parseBlogListQuery(params: URLSearchParams): BlogListQuery {
  const fields: Record<string, string> = {};
  const category = params.get('category') ?? '';
  const limitRaw = params.get('limit') ?? '';
  const offsetRaw = params.get('offset') ?? '';

  const categoryId = category === '' ? null : parseId(category);
  if (category !== '' && categoryId === null) fields.category = 'category must be a positive whole number.';
  const limit = limitRaw === '' ? BLOG_LIST_DEFAULT_LIMIT : readWholeNumber(limitRaw, 1, BLOG_LIST_MAX_LIMIT);
  if (limit === null) fields.limit = `limit must be a whole number from 1 to ${BLOG_LIST_MAX_LIMIT}.`;
  const offset = offsetRaw === '' ? 0 : readWholeNumber(offsetRaw, 0, MAX_OFFSET);
  if (offset === null) fields.offset = 'offset must be a whole number, 0 or more.';

  if (Object.keys(fields).length > 0) throw invalidInput('The list query is not valid.', fields);
  return { categoryId, search: normalizeSearchText(params.get('search')), limit: limit!, offset: offset! };
}

/** A blog id from the path: anything but a positive whole number is a 400, never a lookup. */
export function requireBlogId(raw: string | undefined): number {
  const id = parseId(raw);
  if (id === null) throw new AppError('invalid_input', 'The blog id must be a positive whole number.');
  return id;
}

export interface CommentInput {
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

/**
 * The comment form (SPEC.md section 5): name and comment required and non-blank after trimming;
 * contact optional. Comments are plain text: nothing here parses or keeps HTML, the output side
 * escapes it.
 */
export function validateCommentInput(body: Record<string, unknown>): CommentInput {
  const fields: Record<string, string> = {};
  const readString = (name: 'username' | 'comment' | 'contact', multiline: boolean, required: boolean): string | null => {
    const value = body[name];
    if (value === undefined || value === null) {
      if (required) fields[name] = `${label[name]} is required.`;
      return null;
    }
    if (typeof value !== 'string') {
      fields[name] = `${label[name]} must be text.`;
      return null;
    }
    const text = cleanText(value, { multiline });
    if (text === '') {
      if (required) fields[name] = `${label[name]} is required.`;
      return null;
    }
    if (lengthOf(text) > COMMENT_LIMITS[name]) {
      fields[name] = `${label[name]} must be at most ${COMMENT_LIMITS[name]} characters.`;
      return null;
    }
    return text;
  };
  const username = readString('username', false, true);
  const comment = readString('comment', true, true);
  const contact = readString('contact', false, false);
  if (Object.keys(fields).length > 0) throw invalidInput('Please check the comment form.', fields);
  return { username: username!, comment: comment!, contact };
}
