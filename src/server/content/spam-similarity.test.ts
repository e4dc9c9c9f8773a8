import { describe, expect, it } from 'vitest';
import { areNearDuplicates, withinWordEdits, WORDS_COMPARED } from './spam-similarity.ts';
import { matchingText, wordsOf } from './spam-text.ts';

const words = (text: string) => wordsOf(matchingText(text));

describe('areNearDuplicates', () => {
  const spam = 'Great article, visit my profile for the best study tips and notes';

  it('is true for a copy with one word added, dropped or changed', () => {
    expect(areNearDuplicates(words(spam), words(`${spam} today`))).toBe(true);
    expect(areNearDuplicates(words(spam), words('Great article, visit my profile for the best study tips'))).toBe(true);
    expect(areNearDuplicates(words(spam), words(spam.replace('best', 'finest')))).toBe(true);
    expect(areNearDuplicates(words(spam), words(`Wow! ${spam}`))).toBe(true);
  });

  it('is true for a copy disguised with look-alike and invisible letters', () => {
    expect(
      areNearDuplicates(words(spam), words('Grеаt аrticle, visit my prоfile\u200B fоr the best study tips and notes!')),
    ).toBe(true);
  });

  it('is false for different comments, even on the same subject', () => {
    expect(
      areNearDuplicates(
        words('Great article, the part about derivatives finally made sense to me'),
        words('Great article, but the part about integrals could use another example'),
      ),
    ).toBe(false);
    // One word in five may differ (the longer text's count): none below five words.
    expect(areNearDuplicates(words('one two three four'), words('one two three four five'))).toBe(true);
    expect(areNearDuplicates(words('one two three'), words('one two three four'))).toBe(false);
    expect(areNearDuplicates([], [])).toBe(false);
  });

  it('allows one changed word in five wherever the changes are, and no more', () => {
    const text = Array.from({ length: 50 }, (_, i) => `w${i}`);
    const changed = (n: number, from: number) => text.map((word, i) => (i >= from && i < from + n ? `x${i}` : word));
    for (const from of [0, 20, 40]) {
      expect(areNearDuplicates(text, changed(10, from)), `10 from ${from}`).toBe(true);
      expect(areNearDuplicates(text, changed(11, from - (from === 40 ? 1 : 0))), `11 from ${from}`).toBe(false);
    }
  });

  it('compares the first WORDS_COMPARED words of long texts', () => {
    const text = Array.from({ length: WORDS_COMPARED + 100 }, (_, i) => `w${i}`);
    const otherEnding = [...text.slice(0, WORDS_COMPARED), ...Array.from({ length: 100 }, (_, i) => `x${i}`)];
    expect(areNearDuplicates(text, otherEnding)).toBe(true);
    expect(areNearDuplicates(text, [...text.slice(0, 100), ...otherEnding.slice(200)])).toBe(false);
  });

  it('compares Chinese character by character', () => {
    expect(areNearDuplicates(words('这篇文章非常有用谢谢你的分享'), words('这篇文章非常有用谢谢你的分享啊'))).toBe(true);
  });
});

describe('withinWordEdits', () => {
  it('finds the word edit distance within a limit', () => {
    const a = ['a', 'b', 'c', 'd', 'e'];
    expect(withinWordEdits(a, a, 0)).toBe(true);
    expect(withinWordEdits(a, ['a', 'x', 'c', 'd', 'e'], 0)).toBe(false);
    expect(withinWordEdits(a, ['a', 'x', 'c', 'd', 'e'], 1)).toBe(true);
    expect(withinWordEdits(a, ['b', 'c', 'd', 'e', 'f'], 1)).toBe(false);
    expect(withinWordEdits(a, ['b', 'c', 'd', 'e', 'f'], 2)).toBe(true);
    expect(withinWordEdits(a, ['a', 'b'], 2)).toBe(false);
    expect(withinWordEdits(a, ['a', 'b'], 3)).toBe(true);
  });
});
