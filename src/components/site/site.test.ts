import { describe, expect, it } from 'vitest';
import { blogsHref, floatingSocialLinks, followUsLinks, safeHref, searchHref, shareLinks } from './site.ts';
import { DEFAULT_SETTINGS } from '../../shared/validation/settings.ts';
import { escapeXml } from './xml.ts';

describe('searchHref', () => {
  it('ignores blank and whitespace-only text', () => {
    expect(searchHref('')).toBeNull();
    expect(searchHref('   \t\n ')).toBeNull();
  });

  it('goes to /blogs?search= with the trimmed, encoded text', () => {
    expect(searchHref('  newton laws ')).toBe('/blogs?search=newton%20laws');
    expect(searchHref('a&b=c#d?')).toBe('/blogs?search=a%26b%3Dc%23d%3F');
  });
});

describe('blogsHref', () => {
  it('omits unset filters and page 1', () => {
    expect(blogsHref({})).toBe('/blogs');
    expect(blogsHref({ page: 1 })).toBe('/blogs');
    expect(blogsHref({ category: null, search: null })).toBe('/blogs');
  });

  it('keeps category, search and page in a fixed order', () => {
    expect(blogsHref({ category: 3, page: 2 })).toBe('/blogs?category=3&page=2');
    expect(blogsHref({ search: 'x y', page: 4 })).toBe('/blogs?search=x+y&page=4');
    expect(blogsHref({ category: 5, search: 'a&b' })).toBe('/blogs?category=5&search=a%26b');
  });
});

describe('shareLinks', () => {
  it('builds Facebook, Twitter, LinkedIn and WhatsApp links from the page address', () => {
    const links = shareLinks('https://example.org/blog/7', 'Waves & Light');
    expect(links.map((l) => l.name)).toEqual(['Facebook', 'Twitter', 'LinkedIn', 'WhatsApp']);
    const encoded = encodeURIComponent('https://example.org/blog/7');
    expect(links[0]!.href).toBe(`https://www.facebook.com/sharer/sharer.php?u=${encoded}`);
    expect(links[1]!.href).toBe(`https://twitter.com/intent/tweet?url=${encoded}&text=Waves%20%26%20Light`);
    expect(links[2]!.href).toBe(`https://www.linkedin.com/sharing/share-offsite/?url=${encoded}`);
    expect(links[3]!.href).toBe(`https://wa.me/?text=${encodeURIComponent('Waves & Light https://example.org/blog/7')}`);
  });
});

describe('safeHref', () => {
  it('keeps http(s) addresses and site paths', () => {
    expect(safeHref('https://example.org/pay')).toBe('https://example.org/pay');
    expect(safeHref(' http://example.org ')).toBe('http://example.org/');
    expect(safeHref('/uploads/pdfs/a.pdf')).toBe('/uploads/pdfs/a.pdf');
  });

  it('drops anything that could run script or leave the site by a trick', () => {
    for (const bad of [
      'javascript:alert(1)',
      'JAVASCRIPT:alert(1)',
      'data:text/html,x',
      '//evil.example/x',
      'vbscript:x',
      'not a url',
      '',
      '   ',
      null,
      undefined,
    ]) {
      expect(safeHref(bad)).toBeNull();
    }
  });
});

describe('escapeXml', () => {
  it('escapes markup characters and drops characters XML cannot carry', () => {
    expect(escapeXml(`<a href="x">Tom & Jerry's</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&apos;s&lt;/a&gt;');
    expect(escapeXml('a\u0000b\u0007c\td\ne')).toBe('abc\td\ne');
    expect(escapeXml('https://example.org/blog/7')).toBe('https://example.org/blog/7');
  });
});

describe('social links from the settings', () => {
  it('hides a button whose link is empty or not http(s), in the order of docs/product.md#floating-social-buttons', () => {
    expect(floatingSocialLinks(DEFAULT_SETTINGS)).toEqual([]);
    const settings = {
      ...DEFAULT_SETTINGS,
      social_whatsapp: 'https://wa.me/4412345',
      social_youtube: 'https://www.youtube.com/@me',
      social_instagram: 'javascript:alert(1)',
      follow_twitter: 'https://twitter.com/me',
    };
    expect(floatingSocialLinks(settings)).toEqual([
      { name: 'WhatsApp', href: 'https://wa.me/4412345', className: 'social-whatsapp' },
      { name: 'YouTube', href: 'https://www.youtube.com/@me', className: 'social-youtube' },
    ]);
    expect(followUsLinks(settings).map((l) => l.name)).toEqual(['Twitter']);
  });
});
