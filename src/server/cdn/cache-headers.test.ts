import { describe, expect, it } from 'vitest';
import { BROWSER_PAGE_CACHE_CONTROL, carriesSession, pageKeyTag, sharedCacheHeaders } from './cache-headers.ts';

const settings = (tagHeaders: Array<'xkey' | 'Surrogate-Key' | 'Cache-Tag'>) => ({
  tagHeaders,
  purgeVarnish: [],
  maxAgeSeconds: 3600,
  purgeSecret: null,
  purgeWaitMs: 0,
});

describe('shared cache headers', () => {
  it('without a shared cache, a page keeps the browser-only Cache-Control and no tags', () => {
    expect(sharedCacheHeaders(settings([]), ['blog:1', 'nav'], '/blog/1')).toEqual(['Cache-Control', BROWSER_PAGE_CACHE_CONTROL]);
  });

  it('names the tags and the page key in each configured header, split the way each cache reads it', () => {
    const list = sharedCacheHeaders(settings(['xkey', 'Surrogate-Key', 'Cache-Tag']), ['blog:1', 'nav'], '/blog/1');
    const headers = Object.fromEntries(list.flatMap((value, i) => (i % 2 === 0 ? [[value, list[i + 1]]] : [])));
    const key = pageKeyTag('/blog/1');
    expect(headers).toEqual({
      'Cache-Control': 'public, max-age=0, must-revalidate, s-maxage=3600, stale-while-revalidate=86400',
      xkey: `blog:1 nav ${key}`,
      'Surrogate-Key': `blog:1 nav ${key}`,
      'Cache-Tag': `blog:1,nav,${key}`,
    });
  });

  it('lets a shared cache keep a stale page only briefly', () => {
    expect(sharedCacheHeaders(settings(['xkey']), ['nav'], '/about', true)[1]).toContain('s-maxage=2,');
  });

  it('gives every page key its own short tag without spaces or commas', () => {
    const keys = ['/', '/blogs', '/blogs?category=3', '/blogs?category=3&page=2'];
    const tags = keys.map(pageKeyTag);
    expect(new Set(tags).size).toBe(keys.length);
    for (const tag of tags) expect(tag).toMatch(/^page-[\w-]{16}$/);
  });

  it('recognises the session cookie under both names, and only a non-empty one', () => {
    expect(carriesSession('theme=dark; session=abc.def')).toBe(true);
    expect(carriesSession('__Host-session=abc.def')).toBe(true);
    expect(carriesSession('session=; theme=dark')).toBe(false);
    expect(carriesSession('mysession=abc')).toBe(false);
    expect(carriesSession(undefined)).toBe(false);
  });
});
