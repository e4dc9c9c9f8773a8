import crypto from 'node:crypto';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { PageStore } from './store.ts';
import { PageRenderer } from './renderer.ts';
import type { RenderPool, RenderPriority } from './render-pool.ts';
import type { WorkerAnswer } from './render-worker.ts';
import type { JobWork } from './render-protocol.ts';
import { compressToSync, type PageEncoding } from './compress-page.ts';
import { makeMissingEncodings } from './encoding-backfill.ts';
import { trackTempDirs } from '../../../tests/support/temp-dirs.ts';

const tempDir = trackTempDirs('encoding-backfill-test-');

const html = (text: string) => Buffer.from(`<!doctype html><title>${text}</title><p>${text.repeat(40)}</p>`);

/** The pool's side: compresses in this thread (the worker's own function), recording each job. */
function compressingPool(onJob?: () => void) {
  const jobs: Array<{ key: string; priority: RenderPriority; encodings?: PageEncoding[] }> = [];
  const pool = {
    render(key: string, priority: RenderPriority, { encodings, body }: JobWork = {}) {
      jobs.push({ key, priority, ...(encodings ? { encodings } : {}) });
      onJob?.();
      const answer: Partial<WorkerAnswer> = { key };
      for (const encoding of encodings ?? []) answer[encoding] = compressToSync(encoding, Buffer.from(body!));
      return Promise.resolve(answer as WorkerAnswer);
    },
  };
  return { pool: pool as unknown as RenderPool<WorkerAnswer>, jobs };
}

function storeWith(keys: string[]) {
  const store = new PageStore({ dir: tempDir(), buildId: 'b1' });
  for (const key of keys)
    store.put(key, { contentType: 'text/html', body: html(key), tags: ['nav'] }, store.beginRender(), { keepInMemory: false });
  return store;
}

describe('makeMissingEncodings', () => {
  it('gives every stored page its brotli copy, one job at a time at background priority', async () => {
    const keys = ['/', '/blogs', '/blog/1', '/blog/2'];
    const store = storeWith(keys);
    let running = 0;
    let most = 0;
    const { pool, jobs } = compressingPool(() => {
      most = Math.max(most, ++running);
      queueMicrotask(() => running--);
    });
    const summary = await makeMissingEncodings(store, new PageRenderer(store, pool), keys, 'br');
    store.close();

    expect(summary.made).toBe(4);
    expect(jobs).toEqual(keys.map((key) => ({ key, priority: 'background', encodings: ['br'] })));
    expect(most).toBe(1);
  });

  it('reads back: the copies are in the file, each the brotli of its page, and memory held none of them', async () => {
    const dir = tempDir();
    const keys = ['/blog/1', '/blog/2', '/blog/3'];
    const store = new PageStore({ dir, buildId: 'b1' });
    for (const key of keys)
      store.put(key, { contentType: 'text/html', body: html(key), tags: ['nav'] }, store.beginRender(), { keepInMemory: false });
    const { pool } = compressingPool();
    await makeMissingEncodings(store, new PageRenderer(store, pool), keys, 'br');
    expect(store.stats().memoryPages).toBe(0);
    store.close();

    const reopened = new PageStore({ dir, buildId: 'b1' });
    for (const key of keys) {
      const page = reopened.get(key, ['br', 'identity'])!;
      expect(zlib.brotliDecompressSync(page.br!).equals(html(key))).toBe(true);
    }
    reopened.close();
  });

  it('skips pages that have the copy already, pages not stored, and stops when told', async () => {
    const store = storeWith(['/a', '/b', '/c']);
    const { pool, jobs } = compressingPool();
    const renderer = new PageRenderer(store, pool);
    await makeMissingEncodings(store, renderer, ['/a'], 'br');
    // Its copy reaches the file with the encodings made in the same turn of the event loop.
    await new Promise((resolve) => setImmediate(resolve));
    const stop = new AbortController();
    const { pool: second, jobs: secondJobs } = compressingPool(() => stop.abort());
    const summary = await makeMissingEncodings(
      store,
      new PageRenderer(store, second),
      ['/a', '/missing', '/b', '/c'],
      'br',
      stop.signal,
    );
    expect(jobs.map((j) => j.key)).toEqual(['/a']);
    // '/a' has it, '/missing' is not stored; '/b' is made, and the abort it caused stops before '/c'.
    expect(secondJobs.map((j) => j.key)).toEqual(['/b']);
    expect(summary.made).toBe(1);
    store.close();
  });

  it('makes no copies once the store nears its disk budget: they would push out pages readers asked for', async () => {
    const store = new PageStore({ dir: tempDir(), buildId: 'b1', maxBytes: 64 * 1024 });
    const keys = Array.from({ length: 12 }, (_, i) => `/blog/${i}`);
    for (const key of keys)
      store.put(key, { contentType: 'text/html', body: crypto.randomBytes(5000), tags: ['nav'] }, store.beginRender(), {
        keepInMemory: false,
      });
    const { pool, jobs } = compressingPool();
    await makeMissingEncodings(store, new PageRenderer(store, pool), keys, 'br');
    expect(store.stats().diskBytes).toBeGreaterThan(0.9 * 64 * 1024);
    expect(jobs).toEqual([]);
    store.close();
  });
});
