import { describe, expect, it } from 'vitest';
import { floatingSocialLinks, followUsLinks, safeHref, shareLinks } from './site.ts';
import { DEFAULT_SETTINGS } from '../../shared/validation/settings.ts';
import { escapeXml } from '../../shared/xml.ts';

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
