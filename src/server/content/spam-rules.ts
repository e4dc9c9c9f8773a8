import { createHash } from 'node:crypto';
import { matchingText } from './spam-text.ts';

/**
 * The spam rules that need no database: each looks at the posted text alone, in its matching
 * form (spam-text.ts), so look-alike letters and invisible characters change nothing. No
 * third-party service is asked; a comment that trips a rule is held for an admin, never dropped.
 */

/** Why a comment was held: the code stored with it and shown (as a label) to the admin. */
export type HeldReason = 'honeypot' | 'too_fast' | 'no_token' | 'bad_token' | 'old_token' | 'links' | 'blocklist' | 'duplicate';

export const HELD_REASON_LABELS: Record<HeldReason, string> = {
  honeypot: 'Hidden field filled in',
  too_fast: 'Posted too soon after the form loaded',
  no_token: 'Not sent from the comment form (no form token)',
  bad_token: 'Form token not valid',
  old_token: 'Form token expired (the form was loaded too long before)',
  links: 'Too many links',
  blocklist: 'Contains a blocked word',
  duplicate: 'Same or nearly the same text posted repeatedly',
};

/** More links than this (in the name, comment and contact together) holds a comment. */
export const MAX_LINKS = 2;
/**
 * The same or nearly the same text this many times in the window already, on any article: the
 * next one is held. On the article it was already posted to, the second copy is held.
 */
export const MAX_REPEATS = 2;
export const REPEAT_WINDOW_MS = 24 * 60 * 60 * 1000;
/**
 * Shorter texts (in letters and digits) are not checked for repeats: many readers write "Thank
 * you!", "Great article" or "+1" and mean it; spam that pays is longer.
 */
export const MIN_REPEAT_LENGTH = 20;

/** The body field a person never sees (the form hides it); bots fill every field they find. */
export const HONEYPOT_FIELD = 'subject';

export function isHoneypotFilled(body: Record<string, unknown>): boolean {
  const value = body[HONEYPOT_FIELD];
  return typeof value === 'string' ? value.trim() !== '' : value !== undefined && value !== null && value !== '';
}

/**
 * The stored key of a text for the repeat rule (punctuation, spacing, case and disguised letters
 * do not make it new), or null when the text is too short to count.
 */
export function textKeyOf(text: string): string | null {
  const folded = matchingText(text).replace(/[^\p{L}\p{N}]+/gu, '');
  if ([...folded].length < MIN_REPEAT_LENGTH) return null;
  return createHash('sha256').update(folded).digest('base64url');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The first blocked word or phrase the text contains as a whole word, or null. Both are compared
 * in their matching form (case, accents, look-alike and invisible letters do not count), and the
 * spaces of a phrase may be any spacing or none ("cheap pills", "cheap\u200Bpills").
 */
export function findBlockedWord(text: string, words: readonly string[]): string | null {
  const haystack = matchingText(text);
  for (const word of words) {
    const needle = matchingText(word);
    if (!needle) continue;
    const body = needle.split(' ').map(escapeRegExp).join('\\s*');
    const pattern = new RegExp(`(?<![\\p{L}\\p{N}])${body}(?![\\p{L}\\p{N}])`, 'u');
    if (pattern.test(haystack)) return word;
  }
  return null;
}
