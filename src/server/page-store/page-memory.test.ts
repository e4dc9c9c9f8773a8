import { describe, expect, it } from 'vitest';
import { PageMemory, sizeOf, TRIM_SLACK } from './page-memory.ts';
import { stringSharer } from './shared-strings.ts';
import type { StoredPage } from './store-file.ts';

const page = (key: string, tags: string[], br: number): StoredPage => ({
  key,
  contentType: 'text/html',
  etag: '"e"',
  body: null,
  gzip: null,
  br: Buffer.alloc(br),
  policy: null,
  tags: { names: tags, versions: tags.map(() => 1) },
  renderedAt: 0,
  buildId: 'b',
});

describe('what a page held in memory is counted', () => {
  it('counts what holding a page costs beyond its bytes: each copy, each tag, the page itself', () => {
    const small = page('/blog/1', ['nav'], 2000);
    const tagged = page('/blog/1', ['nav', 'settings', 'blog:1', 'comments:1'], 2000);
    // About twice its copy for a 2 KB brotli page (measured by bench/page-memory.ts), not copy + 256.
    expect(sizeOf(small)).toBeGreaterThan(2000 + 1000);
    expect(sizeOf(tagged)).toBeGreaterThan(sizeOf(small) + 3 * 64);
  });

  it('keeps the memory within its budget with that count', () => {
    const memory = new PageMemory(64 * 1024);
    for (let i = 0; i < 100; i++) memory.remember(page(`/blog/${i}`, ['nav', `blog:${i}`], 2000));
    expect(memory.bytes).toBeLessThanOrEqual(64 * 1024);
    expect(memory.size).toBeLessThan(Math.floor((64 * 1024) / 2000));
  });
});

describe('a page memory past its budget', () => {
  it('lets go of a share more at once, so the next pages held do not each push one out', () => {
    const left: string[] = [];
    const memory = new PageMemory(1024 * 1024, (key) => left.push(key));
    let i = 0;
    for (; left.length === 0; i++) memory.remember(page(`/blog/${i}`, ['nav', `blog:${i}`], 3000));
    expect(left.length).toBeGreaterThan(1);
    expect(left[0]).toBe('/blog/0');
    expect(memory.bytes).toBeLessThanOrEqual(1024 * 1024 * (1 - TRIM_SLACK));
    const afterFirst = left.length;
    memory.remember(page(`/blog/${i}`, ['nav', `blog:${i}`], 3000));
    expect(left.length).toBe(afterFirst);
  });
});

describe('a page read again', () => {
  it('keeps its place while among the newer half, and goes to the newest end from the older half', () => {
    const memory = new PageMemory(1024 * 1024);
    for (let i = 0; i < 10; i++) memory.remember(page(`/blog/${i}`, ['nav'], 100));
    const order = () => [...memory.keys()].map((key) => Number(key.slice('/blog/'.length)));
    // Not moved on every read: V8 keeps each move's deleted entry in the key's hash chain.
    for (let i = 0; i < 1000; i++) expect(memory.get('/blog/7')?.key).toBe('/blog/7');
    expect(order()).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    memory.get('/blog/1');
    expect(order()).toEqual([0, 2, 3, 4, 5, 6, 7, 8, 9, 1]);
  });

  it('stays held while newer pages that nobody reads again push the others out', () => {
    const left: string[] = [];
    const memory = new PageMemory(256 * 1024, (key) => left.push(key));
    for (let i = 0; i < 2000; i++) {
      memory.remember(page(`/blog/${i}`, ['nav'], 1000));
      expect(memory.get('/blog/0')?.key).toBe('/blog/0');
    }
    expect(left.length).toBeGreaterThan(1000);
    expect(left).not.toContain('/blog/0');
  });
});

describe('strings shared by many pages', () => {
  it('gives back the one string first seen for equal values, up to its limit', () => {
    const share = stringSharer(2);
    const first = share(['a', 'b'].join(''));
    expect(share(['a', 'b'].join(''))).toBe(first);
    share('c');
    expect(share('d')).toBe('d'); // past the limit: given back as it came
    expect(share('ab')).toBe(first);
  });
});
