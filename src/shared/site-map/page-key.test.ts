import { describe, expect, it } from 'vitest';
import { categoryListOf, pageKeyOf } from './page-key.ts';

// The front server's view of the same function is tested in src/server/page-store/site-map.test.ts;
// these cover what moved with it: the routes now come from paths.ts.
describe('pageKeyOf', () => {
  it('stores the fixed pages and files under their own address, a trailing slash dropped', () => {
    for (const path of [
      '/',
      '/blogs',
      '/download',
      '/about',
      '/contact',
      '/sitemap.xml',
      '/rss.xml',
      '/robots.txt',
      '/manifest.webmanifest',
    ])
      expect(pageKeyOf(`${path}?utm_source=x`)).toBe(path);
    expect(pageKeyOf('/about/')).toBe('/about');
  });

  it('matches the dot of a file name literally', () => {
    expect(pageKeyOf('/rssxxml')).toBeNull();
    expect(pageKeyOf('/sitemap.xml.gz')).toBeNull();
  });

  it('keeps category and page in a fixed order and drops page 1', () => {
    expect(pageKeyOf('/blogs?page=1&category=2')).toBe('/blogs?category=2');
    expect(pageKeyOf('/blogs?page=3&category=2')).toBe('/blogs?category=2&page=3');
    expect(pageKeyOf('/?page=2&category=2')).toBe('/?page=2');
  });
});

describe('categoryListOf', () => {
  it("names the category of any page of a category's list, and nothing for other keys", () => {
    expect(categoryListOf('/blogs?category=12')).toBe(12);
    expect(categoryListOf('/blogs?category=12&page=3')).toBe(12);
    expect(categoryListOf('/blogs')).toBeNull();
    expect(categoryListOf('/blogs?page=2')).toBeNull();
    expect(categoryListOf('/blog/12')).toBeNull();
    expect(categoryListOf('/blogs?category=12x')).toBeNull();
  });
});
