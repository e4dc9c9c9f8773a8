import type { Vocabulary, VocabularyTerm } from '../ports.ts';

/**
 * Misspelling search: a word that matches nothing is compared with the index's vocabulary (the
 * distinct words, not the articles), and the closest known words are searched instead.
 */

export type { Vocabulary, VocabularyTerm };

export function buildVocabulary(terms: VocabularyTerm[]): Vocabulary {
  const sorted = terms.map((t) => t.term).sort();
  const byLength = new Map<number, VocabularyTerm[]>();
  for (const t of terms) {
    const length = [...t.term].length;
    const bucket = byLength.get(length) ?? [];
    bucket.push(t);
    byLength.set(length, bucket);
  }
  return { sorted, byLength };
}

/** Where the first indexed word not before `word` is in the sorted vocabulary. */
function firstFrom(terms: string[], word: string): number {
  let low = 0;
  let high = terms.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (terms[mid]! < word) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** Whether some indexed word starts with this one (so the prefix search can find it). */
export function hasPrefix(vocabulary: Vocabulary, word: string): boolean {
  const at = firstFrom(vocabulary.sorted, word);
  return at < vocabulary.sorted.length && vocabulary.sorted[at]!.startsWith(word);
}

/**
 * The one indexed word that starts with `word`, or null when none or several do. Only for words of
 * ASCII letters and digits, which the index's tokenizer keeps as they are: the vocabulary then
 * names exactly the words FTS5's prefix search would match.
 */
export function soleWordStartingWith(vocabulary: Vocabulary, word: string): string | null {
  if (!/^[a-z0-9]+$/.test(word)) return null;
  const terms = vocabulary.sorted;
  const at = firstFrom(terms, word);
  if (at >= terms.length || !terms[at]!.startsWith(word)) return null;
  return at + 1 < terms.length && terms[at + 1]!.startsWith(word) ? null : terms[at]!;
}

/**
 * Edit distance with adjacent transpositions (optimal string alignment), or `max + 1` as soon as
 * the distance must exceed `max`, so a far word costs a row or two rather than the whole table.
 */
export function boundedEditDistance(a: string[], b: string[], max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let before = new Array<number>(b.length + 1).fill(0);
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = new Array<number>(b.length + 1);
    current[0] = i;
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, before[j - 2]! + 1);
      current[j] = value;
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > max) return max + 1;
    before = previous;
    previous = current;
  }
  return previous[b.length]!;
}

/** How far a word may be from the one meant: one slip in a short word, two in a long one. */
export function allowedDistance(length: number): number {
  if (length < 4) return 0;
  return length >= 8 ? 2 : 1;
}

/** Plain Latin letters for the comparison: the index folds accents the same way. */
function foldWord(word: string): string[] {
  return [
    ...word
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .normalize('NFC'),
  ];
}

/** Up to `limit` known words closest to this one, closest and most common first. */
export function closestTerms(vocabulary: Vocabulary, word: string, limit = 3): string[] {
  const letters = foldWord(word);
  const max = allowedDistance(letters.length);
  if (max === 0) return [];
  const found: { term: string; distance: number; doc: number }[] = [];
  for (let length = letters.length - max; length <= letters.length + max; length++) {
    for (const candidate of vocabulary.byLength.get(length) ?? []) {
      const other = [...candidate.term];
      // A word that differs in both of its first two letters is skipped, which keeps the scan
      // short, unless a letter was added or dropped there ("fotosynthesis" for "photosynthesis").
      if (other[0] !== letters[0] && other[1] !== letters[1] && other[2] !== letters[1] && other[1] !== letters[2]) continue;
      const distance = boundedEditDistance(letters, other, max);
      if (distance <= max) found.push({ term: candidate.term, distance, doc: candidate.doc });
    }
  }
  found.sort((x, y) => x.distance - y.distance || y.doc - x.doc || (x.term < y.term ? -1 : 1));
  return found.slice(0, limit).map((f) => f.term);
}
