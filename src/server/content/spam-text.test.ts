import { describe, expect, it } from 'vitest';
import { matchingText, wordsOf } from './spam-text.ts';

describe('matchingText', () => {
  it('folds look-alike Cyrillic and Greek letters to the Latin ones, whatever the case', () => {
    expect(matchingText('саsinо')).toBe('casino'); // Cyrillic с, а, о
    expect(matchingText('CАSINО')).toBe('casino');
    expect(matchingText('CASIΝO')).toBe('casino'); // Greek capital Ν
    expect(matchingText('httр://ехаmрlе.соm')).toBe('http://example.com');
  });

  it('removes zero-width and other invisible characters', () => {
    for (const invisible of ['\u200B', '\u200C', '\u200D', '\u200E', '\u2060', '\u2063', '\uFEFF', '\u00AD', '\u180E'])
      expect(matchingText(`cas${invisible}ino`), JSON.stringify(invisible)).toBe('casino');
  });

  it('takes dots and accents off letters', () => {
    expect(matchingText('ċaṡiṅo')).toBe('casino');
    expect(matchingText('Ḃuy ċheap')).toBe('buy cheap');
    expect(matchingText('naïve café')).toBe('naive cafe');
  });

  it('reads full-width and mathematical letters as plain ones', () => {
    expect(matchingText('ｃａｓｉｎｏ')).toBe('casino');
    expect(matchingText('𝐜𝐚𝐬𝐢𝐧𝐨')).toBe('casino');
    expect(matchingText('example。com')).toBe('example.com');
  });

  it('leaves ASCII letters and digits as they are, but for case', () => {
    expect(matchingText('Pi is 3.14, e.g. Fig. 2.1; I am 10')).toBe('pi is 3.14, e.g. fig. 2.1; i am 10');
  });

  it('never turns ordinary non-Latin text into Latin words', () => {
    for (const text of ['Привет, как дела? Это т.е. пример.', 'مرحبا بالعالم، هذا مثال', '你好，世界。这是一个测试。']) {
      const words = wordsOf(matchingText(text));
      expect(words.length).toBeGreaterThan(2);
      expect(
        words.filter((word) => /^[a-z]{2,}$/.test(word)),
        text,
      ).toEqual([]);
    }
  });
});

describe('wordsOf', () => {
  it('splits on anything but letters and digits, and Chinese into single characters', () => {
    expect(wordsOf('great article, visit my-site!')).toEqual(['great', 'article', 'visit', 'my', 'site']);
    expect(wordsOf('你好世界 ok')).toEqual(['你', '好', '世', '界', 'ok']);
  });
});
