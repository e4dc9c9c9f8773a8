import { describe, expect, it } from 'vitest';
import { boundedEditDistance, buildVocabulary, closestTerms, hasPrefix } from './search-fuzzy.ts';

const letters = (word: string) => [...word];
const vocabulary = buildVocabulary(
  ['photosynthesis', 'photograph', 'thermodynamics', 'pythagoras', 'python', 'cell', 'cello', 'notes', 'nodes'].map(
    (term, i) => ({
      term,
      doc: i + 1,
    }),
  ),
);

describe('boundedEditDistance', () => {
  it('counts substitutions, insertions, deletions and adjacent swaps', () => {
    expect(boundedEditDistance(letters('pythagorus'), letters('pythagoras'), 2)).toBe(1);
    expect(boundedEditDistance(letters('photosynthsis'), letters('photosynthesis'), 2)).toBe(1);
    expect(boundedEditDistance(letters('ntoes'), letters('notes'), 2)).toBe(1);
    expect(boundedEditDistance(letters('abc'), letters('abc'), 0)).toBe(0);
  });

  it('stops at max + 1 for a far word', () => {
    expect(boundedEditDistance(letters('kitten'), letters('sitting'), 1)).toBe(2);
    expect(boundedEditDistance(letters('a'), letters('abcdef'), 2)).toBe(3);
  });
});

describe('closestTerms', () => {
  it('finds the word meant, closest and most common first', () => {
    expect(closestTerms(vocabulary, 'thermodinamics')).toEqual(['thermodynamics']);
    expect(closestTerms(vocabulary, 'pythagorus')).toEqual(['pythagoras']);
    expect(closestTerms(vocabulary, 'noets')).toEqual(['notes']);
    expect(closestTerms(vocabulary, 'nobes')).toEqual(['nodes', 'notes']);
  });

  it('finds a long word whose first letters were spelled by sound ("f" for "ph", and back)', () => {
    expect(closestTerms(vocabulary, 'fotosynthesis')).toEqual(['photosynthesis']);
    expect(closestTerms(buildVocabulary([{ term: 'formula', doc: 1 }]), 'phormula')).toEqual(['formula']);
  });

  it('leaves short words and far words alone', () => {
    expect(closestTerms(vocabulary, 'cel')).toEqual([]);
    expect(closestTerms(vocabulary, 'zzzzzzzz')).toEqual([]);
  });

  it('folds accents as the index does', () => {
    expect(closestTerms(vocabulary, 'pÿthagorus')).toEqual(['pythagoras']);
  });
});

describe('hasPrefix', () => {
  it('tells whether an indexed word starts with the text', () => {
    expect(hasPrefix(vocabulary, 'photo')).toBe(true);
    expect(hasPrefix(vocabulary, 'pythagoras')).toBe(true);
    expect(hasPrefix(vocabulary, 'photosynthsis')).toBe(false);
    expect(hasPrefix(vocabulary, 'zzz')).toBe(false);
  });
});
