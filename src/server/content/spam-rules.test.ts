import { describe, expect, it } from 'vitest';
import { findBlockedWord, isHoneypotFilled, textKeyOf } from './spam-rules.ts';

describe('findBlockedWord', () => {
  it('matches whole words and phrases, ignoring case and spacing', () => {
    expect(findBlockedWord('Cheap   PILLS today', ['cheap pills'])).toBe('cheap pills');
    expect(findBlockedWord('casino!', ['casino'])).toBe('casino');
    expect(findBlockedWord('occasional', ['casino', 'cas'])).toBeNull();
    expect(findBlockedWord('anything', [])).toBeNull();
  });

  it('sees a blocked word through look-alike letters, invisible characters and accents', () => {
    expect(findBlockedWord('Best саsinо bonus', ['casino'])).toBe('casino'); // Cyrillic с, а, о
    expect(findBlockedWord('Best cas\u200Bino bonus', ['casino'])).toBe('casino');
    expect(findBlockedWord('Best ċaṡino bonus', ['casino'])).toBe('casino');
    expect(findBlockedWord('Best ｃａｓｉｎｏ bonus', ['casino'])).toBe('casino');
    expect(findBlockedWord('Buy cheap\u200Bpills', ['cheap pills'])).toBe('cheap pills');
  });

  it('does not find a Latin word in text written in another script', () => {
    const words = ['casino', 'cheap pills', 'porn', 'sex', 'loan'];
    expect(findBlockedWord('Спасибо за статью, всё очень понятно объяснено.', words)).toBeNull();
    expect(findBlockedWord('شكرا على هذا المقال المفيد جدا', words)).toBeNull();
    expect(findBlockedWord('谢谢你的文章，非常有帮助。', words)).toBeNull();
  });

  it('treats regular-expression characters in a word as text', () => {
    expect(findBlockedWord('win $$$ now', ['$$$'])).toBe('$$$');
    expect(findBlockedWord('a.b', ['a+b'])).toBeNull();
  });
});

describe('textKeyOf', () => {
  it('gives the same key to texts that differ only in case, spacing and punctuation', () => {
    const a = textKeyOf('Great article, visit my site for more!');
    expect(a).not.toBeNull();
    expect(textKeyOf('great   ARTICLE visit my site for more')).toBe(a);
    expect(textKeyOf('A different article, visit my site')).not.toBe(a);
  });

  it('gives a copy disguised with look-alike or invisible letters the same key', () => {
    const a = textKeyOf('Great article, visit my site for more!');
    expect(textKeyOf('Grеаt аrticle, visit my sitе\u200B for more!')).toBe(a);
  });

  it('leaves short texts out of the repeat rule', () => {
    expect(textKeyOf('Thank you!')).toBeNull();
  });
});

describe('isHoneypotFilled', () => {
  it('is true only when the hidden field carries something', () => {
    expect(isHoneypotFilled({})).toBe(false);
    expect(isHoneypotFilled({ subject: '' })).toBe(false);
    expect(isHoneypotFilled({ subject: '  ' })).toBe(false);
    expect(isHoneypotFilled({ subject: 'Buy now' })).toBe(true);
    expect(isHoneypotFilled({ subject: 1 })).toBe(true);
  });
});
