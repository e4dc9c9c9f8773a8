import type { FieldErrors, ValidationResult } from './common.ts';
import type { CommentStatus, ModerationAction } from '../api-types.ts';

/**
 * The admin's moderation inputs, shared by the moderation screen and its endpoints:
 * POST /api/blogs/comment/moderate `{ids, action}` and PUT /api/admin/comment-blocklist `{words}`.
 */

export const COMMENT_STATUSES: readonly CommentStatus[] = ['pending', 'approved', 'spam'];
export const MODERATION_ACTIONS: readonly ModerationAction[] = ['approve', 'spam', 'delete'];
export const MAX_MODERATION_IDS = 500;
export const BLOCKLIST_LIMITS = { words: 500, wordLength: 60 } as const;

export function isCommentStatus(value: unknown): value is CommentStatus {
  return typeof value === 'string' && (COMMENT_STATUSES as readonly string[]).includes(value);
}

export function validateModerationInput(input: {
  ids?: unknown;
  action?: unknown;
}): ValidationResult<{ ids: number[]; action: ModerationAction }> {
  const errors: FieldErrors = {};
  const action = input.action;
  if (typeof action !== 'string' || !(MODERATION_ACTIONS as readonly string[]).includes(action)) {
    errors.action = `action must be one of ${MODERATION_ACTIONS.join(', ')}.`;
  }
  let ids: number[] = [];
  if (!Array.isArray(input.ids) || input.ids.length === 0 || input.ids.length > MAX_MODERATION_IDS) {
    errors.ids = `ids must be a list of 1 to ${MAX_MODERATION_IDS} comment ids.`;
  } else if (!input.ids.every((id) => Number.isSafeInteger(id) && (id as number) > 0)) {
    errors.ids = 'Every id must be a positive whole number.';
  } else {
    ids = [...new Set(input.ids as number[])];
  }
  return { values: { ids, action: (errors.action ? 'approve' : action) as ModerationAction }, errors };
}

/** One word or phrase a line; blank lines dropped, case folded, repeats removed. */
export function parseBlocklistText(text: string): string[] {
  const words = text
    .split(/\r?\n/)
    .map((line) => line.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim())
    .filter((line) => line !== '');
  return [...new Set(words)];
}

export function validateBlocklistInput(input: { words?: unknown }): ValidationResult<{ words: string[] }> {
  const errors: FieldErrors = {};
  if (!Array.isArray(input.words) || !input.words.every((word) => typeof word === 'string')) {
    return { values: { words: [] }, errors: { words: 'words must be a list of text.' } };
  }
  const words = parseBlocklistText((input.words as string[]).join('\n'));
  if (words.length > BLOCKLIST_LIMITS.words) errors.words = `At most ${BLOCKLIST_LIMITS.words} blocked words.`;
  const long = words.find((word) => [...word].length > BLOCKLIST_LIMITS.wordLength);
  if (long !== undefined) errors.words = `Each blocked word must be at most ${BLOCKLIST_LIMITS.wordLength} characters.`;
  return { values: { words }, errors };
}
