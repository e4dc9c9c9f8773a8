import { describe, expect, it } from 'vitest';
import { countLinks } from './spam-links.ts';

describe('countLinks', () => {
  it('counts each address once, however it is written', () => {
    expect(countLinks('no links here')).toBe(0);
    expect(countLinks('see http://www.example.org/x and www.a.test')).toBe(2);
    expect(countLinks('https://a.test https://b.test ftp://c.test')).toBe(3);
    expect(countLinks('<a href="x">one</a>')).toBe(1);
  });

  it('counts bare domains: with a path, with www., or on a common top-level domain', () => {
    expect(countLinks('example.com/x')).toBe(1);
    expect(countLinks('www.x.y')).toBe(1);
    expect(countLinks('x.ru')).toBe(1);
    expect(countLinks('go to example.com/x, spam.example/y and x.ru now')).toBe(3);
    expect(countLinks('shop.example.co.uk')).toBe(1);
  });

  it('counts addresses disguised with look-alike or invisible letters', () => {
    expect(countLinks('httр://a.test httр://b.test httр://c.test')).toBe(3); // Cyrillic р
    expect(countLinks('ехаmрlе.соm')).toBe(1);
    expect(countLinks('exam\u200Bple.com/x')).toBe(1);
  });

  it('does not count ordinary prose, numbers, abbreviations or email addresses', () => {
    for (const text of [
      'Pi is 3.14, e.g. in Fig. 2.1, i.e. roughly.',
      'It ended.Next we start again.',
      'Done.It works.',
      'Version 1.2.3 of the notes, see p. 4.',
      'Write to me@example.com or john.doe@example.org',
      'Привет, т.е. пример. См. рис. 3.',
      '你好。世界。',
    ])
      expect(countLinks(text), text).toBe(0);
  });

  it('counts any dotted name for the contact field, but not an email address', () => {
    expect(countLinks('spam.example', { anyDomain: true })).toBe(1);
    expect(countLinks('spam.example')).toBe(0);
    expect(countLinks('me@spam.example', { anyDomain: true })).toBe(0);
    expect(countLinks('Anna', { anyDomain: true })).toBe(0);
  });
});
