import { describe, expect, it } from 'vitest';
import { pageTagsOf, pageTagsText, readPageTagsText, sameTagNames, versionIn } from './page-tags.ts';

describe("a stored page's tags", () => {
  it('reads back what it writes, as JSON would', () => {
    const tags = pageTagsOf(['blog:12', 'category-name:3', 'nav', 'settings'], (name) => name.length * 7);
    const text = pageTagsText(tags);
    expect(JSON.parse(text)).toEqual({ 'blog:12': 49, 'category-name:3': 105, nav: 21, settings: 56 });
    expect(readPageTagsText(text)).toEqual(tags);
    expect(readPageTagsText('{}')).toEqual({ names: [], versions: [] });
  });

  it('reads what JSON reads that it does not write itself: spaces, escaped names', () => {
    expect(readPageTagsText('{ "nav" : 2 }')).toEqual({ names: ['nav'], versions: [2] });
    expect(readPageTagsText('{"a\\"b":1,"c":2}')).toEqual({ names: ['a"b', 'c'], versions: [1, 2] });
    const odd = pageTagsOf(['quote"d', 'back\\slash'], () => 4);
    expect(readPageTagsText(pageTagsText(odd))).toEqual(odd);
  });

  it('refuses text that is not tags', () => {
    for (const text of [
      '',
      '{',
      '{"nav":}',
      '{"nav":1',
      '{"nav":1}x',
      '{"nav":"1"}',
      '[1,2]',
      'null',
      '{"nav":1,}',
      '\u0000\u0001',
    ])
      expect(readPageTagsText(text), text).toBeNull();
  });

  it('finds a version by name, and compares names whatever their order', () => {
    const tags = { names: ['nav', 'blog:1'], versions: [3, 0] };
    expect(versionIn(tags, 'blog:1')).toBe(0);
    expect(versionIn(tags, 'blog:2')).toBeUndefined();
    expect(sameTagNames(['nav', 'blog:1'], ['blog:1', 'nav'])).toBe(true);
    expect(sameTagNames(['nav', 'blog:1'], ['blog:1', 'nav', 'list'])).toBe(false);
    expect(sameTagNames(['nav', 'blog:1'], ['nav', 'blog:2'])).toBe(false);
  });
});
