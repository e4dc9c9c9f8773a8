import { describe, expect, it } from 'vitest';
import { filesOfPage } from './offline-copies.ts';
import { positionFromHash, positionIn } from './reading-position.ts';
import { validateProgressInput, validateSyncInput } from '../../shared/validation/library.ts';

describe('filesOfPage', () => {
  it('finds this site’s scripts, styles, island scripts and uploads, and nothing from elsewhere', () => {
    const html = `<link rel="stylesheet" href="/_astro/site.abc.css"><script type="module" src="/_astro/page.def.js"></script>
      <astro-island component-url="/_astro/Comments.123.js" renderer-url="/_astro/client.456.js"></astro-island>
      <img src="/uploads/images/a.webp" srcset="/uploads/images/a-480.webp 480w, /uploads/images/a-960.webp 960w">
      <a href="/uploads/pdfs/n.pdf" download>PDF</a><img src="https://i.ytimg.com/x.jpg"><a href="/blog/2">Next</a>`;
    expect(filesOfPage(html, 'http://127.0.0.1:4321/blog/1')).toEqual({
      assets: ['/_astro/site.abc.css', '/_astro/page.def.js', '/_astro/Comments.123.js', '/_astro/client.456.js'],
      uploads: ['/uploads/images/a.webp', '/uploads/pdfs/n.pdf', '/uploads/images/a-480.webp', '/uploads/images/a-960.webp'],
    });
  });
});

describe('reading position', () => {
  it('is 0 at the article’s top, 1 once its end is on screen', () => {
    expect(positionIn({ top: 100, height: 2100 }, 0, 1000)).toBe(0);
    expect(positionIn({ top: 100, height: 2100 }, 650, 1000)).toBe(0.5);
    expect(positionIn({ top: 100, height: 2100 }, 5000, 1000)).toBe(1);
    expect(positionIn({ top: 100, height: 500 }, 0, 1000)).toBe(1);
  });

  it('reads #at= links and nothing else', () => {
    expect(positionFromHash('#at=0.42')).toBe(0.42);
    expect(positionFromHash('#at=1')).toBe(1);
    expect(positionFromHash('#at=1.5')).toBeNull();
    expect(positionFromHash('#comments')).toBeNull();
  });
});

describe('library input', () => {
  it('accepts a position from 0 to 1 only', () => {
    expect(validateProgressInput({ position: 0.12345 })).toEqual({ values: { position: 0.123 }, errors: {} });
    expect(validateProgressInput({ position: 2 }).errors.position).toBeDefined();
    expect(validateProgressInput({ position: Number.NaN }).errors.position).toBeDefined();
  });

  it('keeps each id once and refuses anything but positive whole numbers', () => {
    expect(validateSyncInput({ ids: [3, 1, 3] })).toEqual({ values: { ids: [3, 1] }, errors: {} });
    expect(validateSyncInput({ ids: [1, -2] }).errors.ids).toBeDefined();
    expect(validateSyncInput({ ids: 'x' }).errors.ids).toBeDefined();
  });
});
