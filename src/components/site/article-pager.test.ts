import { describe, expect, it } from 'vitest';
import { cameFromCategory } from './article-pager.ts';

const origin = 'https://notes.example';

describe('cameFromCategory', () => {
  it("is true straight from the category's list, on any of its pages", () => {
    expect(cameFromCategory(`${origin}/blogs?category=3`, origin, '3', null)).toBe(true);
    expect(cameFromCategory(`${origin}/blogs?category=3&page=4`, origin, '3', null)).toBe(true);
  });

  it("is true from another article while the reader pages through the category's pair", () => {
    expect(cameFromCategory(`${origin}/blog/12`, origin, '3', '3')).toBe(true);
    expect(cameFromCategory(`${origin}/blog/12`, origin, '3', '4')).toBe(false);
    expect(cameFromCategory(`${origin}/blog/12`, origin, '3', null)).toBe(false);
  });

  it('is false from anywhere else: another list, a search, another site, no referrer', () => {
    expect(cameFromCategory(`${origin}/blogs?category=4`, origin, '3', null)).toBe(false);
    expect(cameFromCategory(`${origin}/blogs?category=3&search=x`, origin, '3', null)).toBe(false);
    expect(cameFromCategory(`${origin}/`, origin, '3', '3')).toBe(false);
    expect(cameFromCategory('https://elsewhere.example/blogs?category=3', origin, '3', null)).toBe(false);
    expect(cameFromCategory('', origin, '3', '3')).toBe(false);
  });
});
