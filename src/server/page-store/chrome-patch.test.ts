import { describe, expect, it } from 'vitest';
import { chromeClose, chromeOpen, chromeVariant, harvestChrome, patchChrome } from './chrome-patch.ts';

/** A page's UTF-8 bytes, as the worker patches them. */
function page(variant: string, header: string, main: string, footer: string): Buffer {
  const html = [
    '<!doctype html><html><head><title>T</title></head><body>',
    chromeOpen('header', variant),
    header,
    chromeClose('header'),
    `<main>${main}</main>`,
    chromeOpen('footer', variant),
    footer,
    chromeClose('footer'),
    '</body></html>',
  ].join('');
  return Buffer.from(html);
}

describe('chrome patch', () => {
  const home = chromeVariant('home', undefined);
  const article = chromeVariant(undefined, 3);

  it('names the variant by the current entry and category', () => {
    expect(home).toBe('home.-');
    expect(article).toBe('-.3');
    expect(chromeVariant(undefined, null)).toBe('-.-');
  });

  it('swaps the header and footer of the same variant and keeps everything between', () => {
    const fresh = harvestChrome(page(article, '<nav>Physics</nav>', 'other', '<p>Physics · 2026</p>'))!;
    expect([...fresh.keys()]).toEqual(['header:-.3', 'footer:-.3']);
    const stored = page(article, '<nav>Fysics</nav>', '<p>The article text</p>', '<p>Fysics · 2026</p>');
    expect(patchChrome(stored, fresh)).toEqual(
      page(article, '<nav>Physics</nav>', '<p>The article text</p>', '<p>Physics · 2026</p>'),
    );
  });

  it('keeps every byte of text outside Latin-1, in the page and in the new parts', () => {
    const fresh = harvestChrome(page(article, '<nav>Φυσική → 光学</nav>', '', '<p>© 2026 · 📐</p>'))!;
    const stored = page(article, '<nav>Physik</nav>', '<p>E = mc² — ∫ f(x) dx, 日本語 ✓</p>', '<p>old</p>');
    expect(patchChrome(stored, fresh)!.toString('utf8')).toBe(
      page(article, '<nav>Φυσική → 光学</nav>', '<p>E = mc² — ∫ f(x) dx, 日本語 ✓</p>', '<p>© 2026 · 📐</p>').toString('utf8'),
    );
  });

  it('patches nothing without the parts of its own variant', () => {
    const fresh = harvestChrome(page(home, '<nav aria-current>Home</nav>', '', '<p>f</p>'))!;
    expect(patchChrome(page(article, '<nav>Home</nav>', 'x', '<p>f</p>'), fresh)).toBeNull();
  });

  it('patches nothing when a mark is missing or appears twice (an article cannot fake one)', () => {
    const fresh = harvestChrome(page(article, '<nav>New</nav>', '', '<p>new</p>'))!;
    expect(patchChrome(Buffer.from('<html><body><main>no marks</main></body></html>'), fresh)).toBeNull();
    const faked = page(article, '<nav>Old</nav>', `text ${chromeOpen('footer', article)} more`, '<p>old</p>');
    expect(patchChrome(faked, fresh)).toBeNull();
    const closed = page(article, '<nav>Old</nav>', `text ${chromeClose('header')}`, '<p>old</p>');
    expect(patchChrome(closed, fresh)).toBeNull();
    expect(harvestChrome(faked)).toBeNull();
  });

  it('patches nothing when the new parts run other inline code than the old (the page policy hashes it)', () => {
    const withScript = (code: string) => `<nav>n</nav><script>${code}</script>`;
    const fresh = harvestChrome(page(article, withScript('b()'), '', '<p>f</p>'))!;
    expect(patchChrome(page(article, withScript('a()'), 'x', '<p>f</p>'), fresh)).toBeNull();
    const same = harvestChrome(page(article, `<nav>New</nav><script>a()</script>`, '', '<p>f</p>'))!;
    expect(patchChrome(page(article, withScript('a()'), 'x', '<p>f</p>'), same)!.toString()).toContain('<nav>New</nav>');
  });
});
