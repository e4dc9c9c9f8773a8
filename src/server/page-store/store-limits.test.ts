import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { PageStore } from './store.ts';
import { STORE_FILE_NAME } from './store-schema.ts';
import { trackTempDirs } from '../../../tests/support/temp-dirs.ts';

const tempDir = trackTempDirs('page-store-limits-');

/** A page that does not compress: its size on disk is about three times its body. */
const randomPage = (tags: string[]) => ({ contentType: 'text/html', body: crypto.randomBytes(20_000), tags });

describe('PageStore limits and failures', () => {
  it('stays under its disk budget, dropping the least recently used pages', () => {
    const store = new PageStore({ dir: tempDir(), buildId: 'b1', maxBytes: 1024 * 1024, memoryBytes: 1024 });
    store.put('/kept', randomPage(['nav']), store.beginRender());
    for (let i = 0; i < 60; i++) {
      store.put(`/page/${i}`, randomPage(['nav']), store.beginRender());
      expect(store.get('/kept')).toBeDefined();
      expect(store.stats().diskBytes).toBeLessThanOrEqual(1024 * 1024);
    }
    expect(store.get('/page/0')).toBeUndefined();
    expect(store.get('/page/59')).toBeDefined();
    store.close();
  });

  it('stays under its disk budget when encodings are added to pages already stored', async () => {
    const store = new PageStore({ dir: tempDir(), buildId: 'b1', maxBytes: 1024 * 1024, memoryBytes: 1024 });
    const pages = Array.from(
      { length: 40 },
      (_, i) => store.put(`/page/${i}`, randomPage(['nav']), store.beginRender(), { keepInMemory: false })!,
    );
    expect(store.stats().diskBytes).toBeLessThanOrEqual(1024 * 1024);
    // gzip copies grow the file (a brotli copy replaces the body there).
    for (const page of pages) store.keepEncoding(page, 'gzip', crypto.randomBytes(15_000));
    // Written together at the next turn of the event loop.
    await new Promise((resolve) => setImmediate(resolve));
    expect(store.stats().diskBytes).toBeLessThanOrEqual(1024 * 1024);
    expect(store.count()).toBeLessThan(40);
    store.close();
  });

  it('keeps a page readers take from memory when the disk budget drops the least recently used', () => {
    // Room in memory for a few pages: /kept is read from there, never from the file.
    const store = new PageStore({ dir: tempDir(), buildId: 'b1', maxBytes: 1024 * 1024, memoryBytes: 200_000 });
    store.put('/kept', randomPage(['nav']), store.beginRender());
    for (let i = 0; i < 60; i++) {
      store.put(`/page/${i}`, randomPage(['nav']), store.beginRender(), { keepInMemory: false });
      expect(store.get('/kept')).toBeDefined();
    }
    expect(store.get('/page/0')).toBeUndefined();
    expect(store.get('/kept')).toBeDefined();
    store.close();
  });

  it('drops the pages memory used least when it must drop some that memory holds, whatever their names', () => {
    // Memory holds every page, the file about 45: evictions must drop pages memory holds.
    const dir = tempDir();
    const store = new PageStore({ dir, buildId: 'b1', maxBytes: 1024 * 1024, memoryBytes: 4 * 1024 * 1024 });
    // '/a' sorts before every other key; it is read after each page stored, so memory used it last.
    store.put('/a', randomPage(['nav']), store.beginRender());
    for (let i = 0; i < 60; i++) {
      store.put(`/page/${i}`, randomPage(['nav']), store.beginRender());
      expect(store.get('/a')).toBeDefined();
    }
    store.close();
    const file = new SQLite(path.join(dir, STORE_FILE_NAME), { readonly: true });
    const keys = (file.prepare('select key from pages').all() as Array<{ key: string }>).map((row) => row.key);
    file.close();
    expect(keys.length).toBeLessThan(61);
    expect(keys).toContain('/a');
    expect(keys).toContain('/page/59');
    expect(keys).not.toContain('/page/0');
  });

  /** WAL pages written while 300 stored pages are read from the file, with a disk budget of `maxMb`. */
  function pagesWrittenByReads(maxMb: number): number {
    const dir = tempDir();
    const store = new PageStore({ dir, buildId: 'b1', memoryBytes: 1024, maxBytes: maxMb * 1024 * 1024 });
    for (let i = 0; i < 300; i++) store.put(`/page/${i}`, randomPage(['nav']), store.beginRender(), { keepInMemory: false });
    // A second connection keeps the WAL from being folded in when the store closes, and starts it empty.
    const file = path.join(dir, STORE_FILE_NAME);
    const watcher = new SQLite(file);
    watcher.pragma('wal_checkpoint(TRUNCATE)');
    expect(fs.statSync(`${file}-wal`).size).toBe(0);
    for (let i = 0; i < 300; i++) expect(store.get(`/page/${i}`)).toBeDefined();
    store.close();
    const pageSize = watcher.pragma('page_size', { simple: true }) as number;
    const written = fs.statSync(`${file}-wal`).size / (pageSize + 24);
    watcher.close();
    return written;
  }

  it('notes reads without rewriting the rows that hold the pages (the write runs on the serving thread)', () => {
    // 300 reads noted, the file (6.3 MB) at 63% of its budget: a few pages of a narrow table and its index.
    // Noting them in the rows of the pages themselves wrote 301.
    const written = pagesWrittenByReads(10);
    expect(written).toBeGreaterThan(0);
    expect(written).toBeLessThan(30);
  });

  it('notes no reads while the file holds less than half its budget', () => {
    expect(pagesWrittenByReads(40)).toBe(0);
  });

  it('finds the stored pages carrying a tag through its index', () => {
    const store = new PageStore({ dir: tempDir(), buildId: 'b1' });
    store.put('/a', randomPage(['blog:1', 'list']), store.beginRender());
    store.put('/b', randomPage(['blog:2', 'list']), store.beginRender());
    store.put('/a', randomPage(['blog:3', 'list']), store.beginRender());
    expect(store.keysCarrying(['blog:1'])).toEqual([]);
    expect(store.keysCarrying(['blog:3', 'blog:2']).sort()).toEqual(['/a', '/b']);
    store.remove('/b');
    expect(store.keysCarrying(['list'])).toEqual(['/a']);
    store.close();
  });

  it('never throws when its file cannot be written, judges freshness in memory and logs once', () => {
    const dir = tempDir();
    const seed = new PageStore({ dir, buildId: 'b1' });
    seed.put('/a', randomPage(['blog:1']), seed.beginRender());
    seed.close();
    const lines: string[] = [];
    const store = new PageStore({ dir, buildId: 'b1', failWrites: true, log: (line) => lines.push(line) });
    expect(store.isFresh(store.get('/a')!)).toBe(true);
    store.invalidate(['blog:1']);
    store.invalidate(['blog:1']);
    expect(store.isFresh(store.get('/a')!)).toBe(false);
    expect(store.isTrusted()).toBe(false);
    const page = store.put('/a', randomPage(['blog:1']), store.beginRender());
    expect(page).not.toBeNull();
    expect(store.isFresh(store.get('/a')!)).toBe(true);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(dir);
    store.close();
  });

  it('never hands out a version twice after a bump that was not written', () => {
    const dir = tempDir();
    const failing = new PageStore({ dir, buildId: 'b1', failWrites: true, log: () => undefined });
    failing.invalidate(['nav']);
    failing.close();
    const store = new PageStore({ dir, buildId: 'b1' });
    store.put('/a', randomPage(['nav']), store.beginRender());
    store.invalidate(['nav']);
    expect(store.isFresh(store.get('/a')!)).toBe(false);
    store.close();
  });
});
