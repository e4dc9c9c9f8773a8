import { describe, expect, it } from 'vitest';
import { blockClose, blockOpen, harvestBlock, patchBlock, showsBlock } from './block-patch.ts';

/** A home page's UTF-8 bytes, as the worker patches them. */
function home(grid: string, ids: number[], list: string): Buffer {
  return Buffer.from(
    [
      '<!doctype html><html><head><title>T</title></head><body><main>',
      grid,
      blockOpen('top-viewed', ids),
      `<aside><ol>${list}</ol></aside>`,
      blockClose('top-viewed'),
      '</main></body></html>',
    ].join(''),
  );
}

describe('block patch', () => {
  it('swaps the top-viewed block, its marks naming the articles it shows, and keeps everything around it', () => {
    const fresh = harvestBlock(
      home('<ul>page 1</ul>', [7, 3], '<li>Seven · 12 clicks</li><li>Three · 9 clicks</li>'),
      'top-viewed',
    )!;
    expect(fresh.ids).toEqual([7, 3]);
    const stored = home('<ul>page 2: E = mc², 日本語 ✓</ul>', [3], '<li>Three · 8 clicks</li>');
    expect(patchBlock(stored, 'top-viewed', fresh)!.toString('utf8')).toBe(
      home('<ul>page 2: E = mc², 日本語 ✓</ul>', [7, 3], '<li>Seven · 12 clicks</li><li>Three · 9 clicks</li>').toString('utf8'),
    );
  });

  it('reads an empty list', () => {
    const empty = harvestBlock(home('', [], '<p>No articles found</p>'), 'top-viewed')!;
    expect(empty.ids).toEqual([]);
    expect(patchBlock(home('<ul>2</ul>', [4], '<li>Four</li>'), 'top-viewed', empty)).toEqual(
      home('<ul>2</ul>', [], '<p>No articles found</p>'),
    );
  });

  it('patches nothing in a page without the block, or whose marks are not each there once', () => {
    const fresh = harvestBlock(home('', [1], '<li>One</li>'), 'top-viewed')!;
    expect(harvestBlock(Buffer.from('<html><body>no block</body></html>'), 'top-viewed')).toBeNull();
    expect(patchBlock(Buffer.from('<html><body>no block</body></html>'), 'top-viewed', fresh)).toBeNull();
    const twice = Buffer.concat([home('', [1], '<li>One</li>'), home('', [1], '<li>One</li>')]);
    expect(patchBlock(twice, 'top-viewed', fresh)).toBeNull();
    const forged = Buffer.from(
      `<html>${blockOpen('top-viewed', [1]).replace('1', '1x')}<aside></aside>${blockClose('top-viewed')}</html>`,
    );
    expect(harvestBlock(forged, 'top-viewed')).toBeNull();
  });

  it('swaps the ticker beside the top-viewed list, each by its own marks', () => {
    const ticker = (ids: number[], titles: string) =>
      `${blockOpen('ticker', ids)}<astro-island props="{&quot;items&quot;:${titles}}"><ul>${titles}</ul></astro-island>${blockClose('ticker')}`;
    const fresh = Buffer.from(
      ticker([9, 8], 'Nine, revised · Eight') + home('<ul>1</ul>', [9], '<li>Nine, revised</li>').toString(),
    );
    const stored = Buffer.from(ticker([9, 8], 'Nine · Eight') + home('<ul>2</ul>', [9], '<li>Nine</li>').toString());
    expect(showsBlock(stored, 'ticker')).toBe(true);
    expect(showsBlock(home('', [], ''), 'ticker')).toBe(false);
    const withTicker = patchBlock(stored, 'ticker', harvestBlock(fresh, 'ticker')!)!;
    expect(harvestBlock(fresh, 'ticker')!.ids).toEqual([9, 8]);
    expect(patchBlock(withTicker, 'top-viewed', harvestBlock(fresh, 'top-viewed')!)!.toString()).toBe(
      ticker([9, 8], 'Nine, revised · Eight') + home('<ul>2</ul>', [9], '<li>Nine, revised</li>').toString(),
    );
  });

  it('patches nothing when the new block runs other inline code than the old (the page policy hashes it)', () => {
    const fresh = harvestBlock(home('', [1], '<li>One</li><script>go()</script>'), 'top-viewed')!;
    expect(patchBlock(home('', [1], '<li>One</li>'), 'top-viewed', fresh)).toBeNull();
  });
});
