import { commonEnds } from '../../shared/word-diff.ts';

/**
 * When two comments are "nearly the same": counted in words (spam-text.ts wordsOf), one text can
 * be turned into the other by adding, removing or changing at most one word in five. So a copy
 * with a word added, dropped or misspelt is the same text for the repeat rule, while two real
 * comments, which share far fewer words in that order, are not.
 */

/** At most this share of the longer text's words may differ. */
export const NEAR_DUPLICATE_SHARE = 0.2;
/**
 * Only the first words are compared: a copy is a copy from its opening on, and this bounds the
 * work of comparing one post with hundreds of recent ones, however long they are.
 */
export const WORDS_COMPARED = 200;

function allowedEdits(a: readonly string[], b: readonly string[]): number {
  return Math.floor(Math.max(a.length, b.length) * NEAR_DUPLICATE_SHARE);
}

/**
 * The words both texts have (as many times as both have them). Edits cannot be fewer than the
 * longer text's words not in common, so most pairs are told apart by this alone.
 */
function wordsInCommon(a: readonly string[], b: readonly string[]): number {
  const counts = new Map<string, number>();
  for (const word of a) counts.set(word, (counts.get(word) ?? 0) + 1);
  let common = 0;
  for (const word of b) {
    const n = counts.get(word) ?? 0;
    if (n > 0) {
      common++;
      counts.set(word, n - 1);
    }
  }
  return common;
}

/**
 * Whether the word edit distance (Levenshtein over words) is at most `limit`, computed only in
 * the band of width 2·limit+1 around the diagonal, where such an edit path must stay.
 */
export function withinWordEdits(a: readonly string[], b: readonly string[], limit: number): boolean {
  if (Math.abs(a.length - b.length) > limit) return false;
  const beyond = limit + 1;
  let previous = new Array<number>(b.length + 1);
  let current = new Array<number>(b.length + 1);
  for (let j = 0; j <= b.length; j++) previous[j] = j <= limit ? j : beyond;
  for (let i = 1; i <= a.length; i++) {
    const from = Math.max(1, i - limit);
    const to = Math.min(b.length, i + limit);
    current.fill(beyond);
    current[0] = i <= limit ? i : beyond;
    let best = current[0];
    for (let j = from; j <= to; j++) {
      const change = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      const value = Math.min(change, previous[j]! + 1, current[j - 1]! + 1, beyond);
      current[j] = value;
      if (value < best) best = value;
    }
    if (best > limit) return false;
    [previous, current] = [current, previous];
  }
  return previous[b.length]! <= limit;
}

/** Whether two texts' words are the same but for at most one word in five. */
export function areNearDuplicates(wordsA: readonly string[], wordsB: readonly string[]): boolean {
  const a = wordsA.slice(0, WORDS_COMPARED);
  const b = wordsB.slice(0, WORDS_COMPARED);
  if (a.length === 0 || b.length === 0) return false;
  const limit = allowedEdits(a, b);
  if (Math.max(a.length, b.length) - wordsInCommon(a, b) > limit) return false;
  // The same opening and ending cost no edits: only what lies between is compared word by word.
  const { start, endA, endB } = commonEnds(a, b);
  return withinWordEdits(a.slice(start, endA), b.slice(start, endB), limit);
}
