import { describe, expect, it } from 'vitest';
import { hotUrlsFor, pageKeyOf } from './page-keys.ts';

describe('pageKeyOf', () => {
  it('normalises the query to the parameters a page reads', () => {
    expect(pageKeyOf('/')).toBe('/');
    expect(pageKeyOf('/?page=1')).toBe('/');
    expect(pageKeyOf('/?page=3&utm_source=x')).toBe('/?page=3');
    expect(pageKeyOf('/blogs?page=2&category=4')).toBe('/blogs?category=4&page=2');
    expect(pageKeyOf('/blog/12')).toBe('/blog/12');
    expect(pageKeyOf('/blog/12/')).toBe('/blog/12');
    expect(pageKeyOf('/download')).toBe('/download');
  });

  it('leaves search pages, odd values and other routes to Astro', () => {
    expect(pageKeyOf('/blogs?search=cell')).toBeNull();
    expect(pageKeyOf('/blogs?page=0')).toBeNull();
    expect(pageKeyOf('/blogs?page=-1')).toBeNull();
    expect(pageKeyOf('/blogs?page=1&page=2')).toBeNull();
    expect(pageKeyOf('/blog/abc')).toBeNull();
    expect(pageKeyOf('/blog/0')).toBeNull();
    expect(pageKeyOf('/admin')).toBeNull();
    expect(pageKeyOf('/api/blogs')).toBeNull();
    expect(pageKeyOf('/login')).toBeNull();
  });
});

describe('hotUrlsFor', () => {
  it('names the pages to re-render at once for each tag', () => {
    expect(hotUrlsFor(['blog:5'])).toEqual(['/blog/5']);
    expect(hotUrlsFor(['comments:5', 'blog:5'])).toEqual(['/blog/5']);
    expect(hotUrlsFor(['list', 'category:2']).sort()).toEqual(['/', '/blogs', '/blogs?category=2']);
    expect(hotUrlsFor(['downloads'])).toEqual(['/download']);
    expect(hotUrlsFor(['carousel'])).toEqual(['/']);
  });
});
