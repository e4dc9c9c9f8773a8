import { createHash } from 'node:crypto';

/**
 * The spam rules that need no database: each looks at the posted text alone. No third-party
 * service is asked; a comment that trips a rule is held for an admin, never dropped.
 */

/** Why a comment was held: the code stored with it and shown (as a label) to the admin. */
export type HeldReason = 'honeypot' | 'too_fast' | 'bad_token' | 'links' | 'blocklist' | 'duplicate';

export const HELD_REASON_LABELS: Record<HeldReason, string> = {
  honeypot: 'Hidden field filled in',
  too_fast: 'Posted too soon after the form loaded',
  bad_token: 'Form token not valid',
  links: 'Too many links',
  blocklist: 'Contains a blocked word',
  duplicate: 'Same text posted repeatedly',
};

/** More links than this holds a comment. */
export const MAX_LINKS = 2;
/** The same text this many times in the window already: the next one is held. */
export const MAX_REPEATS = 2;
export const REPEAT_WINDOW_MS = 24 * 60 * 60 * 1000;
/**
 * Shorter texts (in letters and digits) are not checked for repeats: many readers write "Thank
 * you!" or "+1" and mean it; spam that pays is longer.
 */
export const MIN_REPEAT_LENGTH = 20;

/** The body field a person never sees (the form hides it); bots fill every field they find. */
export const HONEYPOT_FIELD = 'subject';

export function isHoneypotFilled(body: Record<string, unknown>): boolean {
  const value = body[HONEYPOT_FIELD];
  return typeof value === 'string' ? value.trim() !== '' : value !== undefined && value !== null && value !== '';
}

// One match per address: "http://www.x" is one link, not two.
const LINK = /(?:\b[a-z][a-z0-9+.-]*:\/\/|\bwww\.)[^\s<>"']+|<a\s[^>]*href/gi;

export function countLinks(text: string): number {
  return text.match(LINK)?.length ?? 0;
}

/** Lower case, compatibility forms folded, whitespace collapsed: what "the same text" means. */
export function normalizeText(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
}

/**
 * The stored key of a text for the repeat rule (punctuation and spacing do not make it new), or
 * null when the text is too short to count.
 */
export function textKeyOf(text: string): string | null {
  const folded = normalizeText(text).replace(/[^\p{L}\p{N}]+/gu, '');
  if ([...folded].length < MIN_REPEAT_LENGTH) return null;
  return createHash('sha256').update(folded).digest('base64url');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The first blocked word or phrase the text contains as a whole word (case-insensitive), or null. */
export function findBlockedWord(text: string, words: readonly string[]): string | null {
  const haystack = normalizeText(text);
  for (const word of words) {
    const needle = normalizeText(word);
    if (!needle) continue;
    const pattern = new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(needle)}(?![\\p{L}\\p{N}])`, 'u');
    if (pattern.test(haystack)) return word;
  }
  return null;
}
