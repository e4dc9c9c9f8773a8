import type { MatchPlan } from '../db/repositories/search.ts';
import { foldIndexText, UNSPACED_SCRIPT } from '../db/search-text.ts';

const MAX_TERMS = 12;
const MAX_TERM_LENGTH = 64;
const WORD = /[\p{L}\p{N}][\p{L}\p{N}\p{M}]*/gu;

export interface SearchWords {
  /** Words of scripts written with spaces, lower-cased, as the word index holds them. */
  words: string[];
  /** Runs of scripts written without spaces (Chinese...), searched as substrings. */
  unspaced: string[];
}

const clip = (word: string) => [...word].slice(0, MAX_TERM_LENGTH).join('');

/**
 * Splits what a reader typed into searchable words, folded as the index folds text. Only letters,
 * digits and marks survive, so no input can form an FTS5 operator or a syntax error.
 */
export function parseSearchWords(text: string): SearchWords {
  const folded = foldIndexText(text).toLowerCase();
  const unspaced = [...new Set((folded.match(UNSPACED_SCRIPT) ?? []).map(clip))];
  const rest = folded.replace(UNSPACED_SCRIPT, ' ');
  const words = [...new Set((rest.match(WORD) ?? []).map(clip))];
  const keep = Math.max(0, MAX_TERMS - unspaced.length);
  return { words: words.slice(0, keep), unspaced: unspaced.slice(0, MAX_TERMS) };
}

/**
 * The match for the indexes: every word a quoted prefix term, all must match. A word listed in
 * `alternatives` (a misspelling) is replaced by any of its known look-alikes; one in `sole` by the
 * one indexed word it starts with, as an exact term (the same articles, scores and highlights as
 * the prefix, which FTS5 would gather into a list of its own on each search).
 */
export function planMatch(
  parsed: SearchWords,
  categoryId: number | null,
  alternatives = new Map<string, string[]>(),
  sole = new Map<string, string>(),
): MatchPlan {
  const terms = parsed.words.map((word) => {
    const others = alternatives.get(word);
    if (others && others.length > 0) return `(${others.map((o) => `"${o}"`).join(' OR ')})`;
    const only = sole.get(word);
    return only === undefined ? `"${word}"*` : `"${only}"`;
  });
  const long = parsed.unspaced.filter((run) => [...run].length >= 3);
  return {
    // Explicit AND: FTS5 accepts implicit AND only between plain phrases, not beside a bracket.
    words: terms.length > 0 ? terms.join(' AND ') : null,
    trigrams: long.length > 0 ? long.map((run) => `"${run}"`).join(' ') : null,
    shortRuns: parsed.unspaced.filter((run) => [...run].length < 3),
    categoryId,
  };
}
