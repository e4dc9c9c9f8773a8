import crypto from 'node:crypto';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { prerenderAll, progressPrinter } from './prerender.ts';
import { describePrerender } from './prerender-summary.ts';
import { PageStore } from './store.ts';
import type { RenderPool } from './render-pool.ts';
import type { WorkerAnswer } from './render-worker.ts';
import type { JobWork } from './render-protocol.ts';
import { compressToSync, type PageEncoding } from './compress-page.ts';
import { STORE_FILE_NAME } from './store-schema.ts';
import { trackTempDirs } from '../../../tests/support/temp-dirs.ts';

const tempDir = trackTempDirs('prerender-');

/** A log (not a terminal) that keeps what was written. */
function logStream(): { lines: string[]; out: NodeJS.WriteStream } {
  const lines: string[] = [];
  const out = { isTTY: false, write: (text: string) => lines.push(text.trimEnd()) > 0 } as unknown as NodeJS.WriteStream;
  return { lines, out };
}

describe('the pre-render progress lines', () => {
  it('count the whole site when one process renders it', () => {
    const { lines, out } = logStream();
    const show = progressPrinter(105, out);
    for (let done = 1; done <= 105; done += 1) show(done);
    expect(lines.at(-1)).toMatch(/^Pre-rendering: 105\/105 pages \(\d+\/s\)$/);
    expect(lines.length).toBeLessThanOrEqual(11);
  });

  it("name the process's share when several render parts of the site", () => {
    const { lines, out } = logStream();
    const show = progressPrinter(53, out, "(process 1's share of 2)");
    show(53);
    expect(lines).toEqual([expect.stringMatching(/^Pre-rendering \(process 1's share of 2\): 53\/53 pages \(\d+\/s\)$/)]);
  });
});

describe('the pre-render', () => {
  it('stores each page in brotli, made by its worker, and keeps no body beside it in the file', async () => {
    const asked: Array<PageEncoding[] | undefined> = [];
    const body = (key: string) =>
      Buffer.from(`<!doctype html><title>${key}</title>${'<p>A paragraph of the page.</p>'.repeat(200)}`);
    const pool = {
      status: () => ({ workers: 1, size: 1 }),
      render: async (key: string, _priority: unknown, { encodings }: JobWork = {}): Promise<WorkerAnswer> => {
        asked.push(encodings);
        const answer: WorkerAnswer = {
          key,
          status: 200,
          headers: { 'content-type': 'text/html' },
          setsCookie: false,
          tags: ['nav'],
          body: body(key),
        };
        for (const encoding of encodings ?? []) answer[encoding] = compressToSync(encoding, body(key));
        return answer;
      },
    } as unknown as RenderPool<WorkerAnswer>;
    const dir = tempDir();
    const store = new PageStore({ dir, buildId: 'b1', memoryBytes: 1024 });
    try {
      const urls = Array.from({ length: 5 }, (_, i) => `/page/${i}`);
      await prerenderAll(store, urls, { pool, out: null });
      expect(asked).toEqual(urls.map(() => ['br']));
      const file = new SQLite(path.join(dir, STORE_FILE_NAME), { readonly: true });
      const rows = file.prepare('select body is null as dropped, length(br) as br from pages order by key').all() as Array<{
        dropped: number;
        br: number;
      }>;
      file.close();
      expect(rows).toHaveLength(5);
      for (const row of rows) {
        expect(row.dropped).toBe(1);
        expect(row.br).toBeLessThan(body('/page/0').length / 10);
      }
      expect(store.get('/page/3')!.body.equals(body('/page/3'))).toBe(true);
    } finally {
      store.close();
    }
  });
});

describe('the pre-render of a site larger than the store', () => {
  /** A render pool whose pages do not compress: each takes about its size on disk. */
  const pool = {
    status: () => ({ workers: 1, size: 1 }),
    render: async (key: string): Promise<WorkerAnswer> => ({
      key,
      status: 200,
      headers: { 'content-type': 'text/html; charset=utf-8' },
      setsCookie: false,
      tags: ['nav'],
      body: crypto.randomBytes(20_000),
    }),
  } as unknown as RenderPool<WorkerAnswer>;

  it('stops once the store nears its budget, keeping the first pages and saying how many are left for readers', async () => {
    // Room for about 400 pages; a batch of 32 (640 KB) fits in the tenth kept free, as it does in any real budget.
    const store = new PageStore({ dir: tempDir(), buildId: 'b1', maxBytes: 8 * 1024 * 1024, memoryBytes: 1024 });
    try {
      const urls = Array.from({ length: 600 }, (_, i) => `/page/${i}`);
      const summary = await prerenderAll(store, urls, { pool, out: null });
      // The home page and the articles come first in the site's order: they must still be there.
      expect(store.get('/page/0')).toBeDefined();
      expect(store.get('/page/1')).toBeDefined();
      expect(store.stats().diskBytes).toBeLessThanOrEqual(8 * 1024 * 1024);
      expect(summary.left).toBeGreaterThan(100);
      expect(summary.pages + summary.left).toBe(600);
      expect(store.get(`/page/${summary.pages + 1}`)).toBeUndefined();
      expect(describePrerender([summary], 8)).toMatch(
        new RegExp(
          `^Pre-rendered ${summary.pages} pages in [\\d.]+ s \\(\\d+ pages/s\\); the page store reached its disk budget \\(PAGE_STORE_MAX_MB=8\\), so ${summary.left} more are rendered when first asked$`,
        ),
      );
    } finally {
      store.close();
    }
  });

  it('sums the shares of several processes in one line', () => {
    const share = { pages: 10, stored: 10, failed: 1, left: 0, seconds: 2, stopped: false };
    expect(describePrerender([share, { ...share, seconds: 4 }], 1024)).toBe(
      'Pre-rendered 20 pages in 4.0 s (5 pages/s) by 2 processes, 2 failed',
    );
  });
});
