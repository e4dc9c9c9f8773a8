import { describe, expect, it } from 'vitest';
import { countLinks, findBlockedWord, isHoneypotFilled, textKeyOf } from './spam-rules.ts';

describe('countLinks', () => {
  it('counts each address once, however it is written', () => {
    expect(countLinks('no links here')).toBe(0);
    expect(countLinks('see http://www.example.org/x and www.a.test')).toBe(2);
    expect(countLinks('https://a.test https://b.test ftp://c.test')).toBe(3);
    expect(countLinks('<a href="x">one</a>')).toBe(1);
  });
});

describe('findBlockedWord', () => {
  it('matches whole words and phrases, ignoring case and spacing', () => {
    expect(findBlockedWord('Cheap   PILLS today', ['cheap pills'])).toBe('cheap pills');
    expect(findBlockedWord('casino!', ['casino'])).toBe('casino');
    expect(findBlockedWord('occasional', ['casino', 'cas'])).toBeNull();
    expect(findBlockedWord('anything', [])).toBeNull();
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
