import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import SQLite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { PageStore } from './store.ts';
import { StoreGuard } from './store-guard.ts';
import { STORE_FILE_NAME } from './store-schema.ts';
import { trackTempDirs } from '../../../tests/support/temp-dirs.ts';

const tempDir = trackTempDirs('page-store-damage-');
const html = (text: string) => Buffer.from(`<!doctype html><title>${text}</title><p>${text.repeat(400)}</p>`);

/** A closed store of `count` pages (its WAL checkpointed into the file). */
function storeWithPages(count: number): string {
  const dir = tempDir();
  const store = new PageStore({ dir, buildId: 'b1' });
  store.putMany(
    Array.from({ length: count }, (_, i) => ({
      key: `/blog/${i}`,
      input: { contentType: 'text/html', body: html(`page ${i} `), tags: [`blog:${i}`, 'nav', 'list'] },
      renderStartedAt: store.beginRender(),
    })),
  );
  store.close();
  return dir;
}

/** Random bytes over one whole b-tree page of the file (the 100-byte file header is never touched). */
function damagePageOf(file: string, name: string): void {
  const db = new SQLite(file, { readonly: true });
  const root = db.prepare('select rootpage from sqlite_master where name = ?').pluck().get(name) as number;
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  db.close();
  expect(root).toBeGreaterThan(1);
  const fd = fs.openSync(file, 'r+');
  fs.writeSync(fd, crypto.randomBytes(pageSize), 0, pageSize, (root - 1) * pageSize);
  fs.closeSync(fd);
}

const asideOf = (dir: string) => fs.readdirSync(dir).filter((name) => name.startsWith(`${STORE_FILE_NAME}.corrupt-`));

describe('a damaged page store file', () => {
  it('is found by the check at start, set aside with its name logged, and the store starts empty', () => {
    const dir = storeWithPages(40);
    const file = path.join(dir, STORE_FILE_NAME);
    damagePageOf(file, 'page_tags_by_key');
    const lines: string[] = [];
    const store = new PageStore({ dir, buildId: 'b1', check: true, log: (line) => lines.push(line) });
    expect(store.count()).toBe(0);
    const [aside] = asideOf(dir);
    expect(aside).toBeDefined();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(path.join(dir, aside!));
    expect(lines[0]).toContain(file);
    // The fresh file works.
    store.put('/blog/1', { contentType: 'text/html', body: html('again'), tags: ['blog:1'] }, store.beginRender());
    expect(store.get('/blog/1')?.body.toString()).toContain('again');
    store.close();
  });

  it('is left in place while others may have it open: the store serves nothing from it, and the next start sets it aside', () => {
    const dir = storeWithPages(40);
    damagePageOf(path.join(dir, STORE_FILE_NAME), 'page_access_by_time');
    const lines: string[] = [];
    const shared = new PageStore({ dir, buildId: 'b1', check: true, setAside: false, log: (line) => lines.push(line) });
    expect(asideOf(dir)).toEqual([]);
    expect(lines.join('\n')).toContain('is damaged');
    expect(shared.get('/blog/3')).toBeUndefined();
    // A page rendered meanwhile is answered but neither stored nor kept.
    const page = shared.put('/blog/3', { contentType: 'text/html', body: html('fresh'), tags: ['blog:3'] }, shared.beginRender());
    expect(page?.body.toString()).toContain('fresh');
    expect(shared.get('/blog/3')).toBeUndefined();
    shared.close();

    // The next start (no check asked) sets the marked file aside.
    const next = new PageStore({ dir, buildId: 'b1', log: (line) => lines.push(line) });
    expect(asideOf(dir)).toHaveLength(1);
    expect(next.count()).toBe(0);
    next.close();
  });

  it('never answers a body damaged inside the file: the reader gets a render, and the next start sets the file aside', () => {
    const dir = storeWithPages(5);
    const file = path.join(dir, STORE_FILE_NAME);
    // Inside a body SQLite sees nothing wrong; the page's ETag (its hash) does.
    const bytes = fs.readFileSync(file);
    const at = bytes.indexOf('page 3 page 3 page 3');
    expect(at).toBeGreaterThan(100);
    const fd = fs.openSync(file, 'r+');
    fs.writeSync(fd, Buffer.from('#GARBAGE#'), 0, 9, at + 20);
    fs.closeSync(fd);

    const lines: string[] = [];
    const store = new PageStore({ dir, buildId: 'b1', log: (line) => lines.push(line) });
    expect(store.get('/blog/3')).toBeUndefined();
    expect(lines.join('\n')).toMatch(/is damaged \(the stored body of \/blog\/3 does not match its ETag\)/);
    // From then on the file is not used at all, not even for pages that read right.
    expect(store.get('/blog/1')).toBeUndefined();
    store.close();

    const next = new PageStore({ dir, buildId: 'b1', log: (line) => lines.push(line) });
    expect(asideOf(dir)).toHaveLength(1);
    expect(next.get('/blog/3')).toBeUndefined();
    next.close();
  });

  /** Flips one byte in the middle of `bytes` where the file (or its WAL) holds them (they must be there once). */
  function damageBytesIn(storeFile: string, bytes: Buffer): void {
    const file = [storeFile, `${storeFile}-wal`].find((f) => fs.existsSync(f) && fs.readFileSync(f).includes(bytes))!;
    expect(file).toBeDefined();
    const content = fs.readFileSync(file);
    const at = content.indexOf(bytes);
    expect(at).toBeGreaterThan(100);
    expect(content.indexOf(bytes, at + 1)).toBe(-1);
    const fd = fs.openSync(file, 'r+');
    const middle = at + (bytes.length >> 1);
    fs.writeSync(fd, Buffer.from([content[middle]! ^ 0xff]), 0, 1, middle);
    fs.closeSync(fd);
  }

  it('never answers a damaged compressed copy stored with its page', () => {
    const dir = tempDir();
    const body = html('compressed page ');
    const gzip = zlib.gzipSync(body);
    const first = new PageStore({ dir, buildId: 'b1' });
    first.put('/blog/7', { contentType: 'text/html', body, tags: ['blog:7'], gzip }, first.beginRender());
    first.close();
    damageBytesIn(path.join(dir, STORE_FILE_NAME), gzip);

    const lines: string[] = [];
    const store = new PageStore({ dir, buildId: 'b1', log: (line) => lines.push(line) });
    expect(store.get('/blog/7')).toBeUndefined();
    expect(lines.join('\n')).toMatch(/is damaged \(the stored gzip copy of \/blog\/7 does not match its checksum\)/);
    store.close();
  });

  it('never answers a damaged compressed copy another process added to a page this one holds', () => {
    const dir = tempDir();
    const body = html('shared page ');
    const writer = new PageStore({ dir, buildId: 'b1' });
    writer.put('/blog/8', { contentType: 'text/html', body, tags: ['blog:8'] }, writer.beginRender());
    const lines: string[] = [];
    const reader = new PageStore({ dir, buildId: 'b1', log: (line) => lines.push(line) });
    const held = reader.get('/blog/8')!;
    expect(held.br).toBeNull();

    const br = zlib.brotliCompressSync(body);
    writer.keepEncoding(writer.get('/blog/8')!, 'br', br);
    writer.close();
    damageBytesIn(path.join(dir, STORE_FILE_NAME), br);

    expect(reader.copyOf(held, 'br')).toBeNull();
    expect(held.br).toBeNull();
    expect(lines.join('\n')).toMatch(/the stored br copy of \/blog\/8 does not match its checksum/);
    reader.close();
  });

  it('starts afresh from a store written before its copies carried checksums (they cannot be checked)', () => {
    const dir = tempDir();
    const body = html('older layout ');
    const gzip = zlib.gzipSync(body);
    const first = new PageStore({ dir, buildId: 'b1' });
    first.put('/blog/9', { contentType: 'text/html', body, tags: ['blog:9'], gzip }, first.beginRender());
    first.close();
    const older = new SQLite(path.join(dir, STORE_FILE_NAME));
    older.exec('alter table pages drop column gzip_sum; alter table pages drop column br_sum');
    older.close();

    const store = new PageStore({ dir, buildId: 'b1' });
    expect(store.get('/blog/9')).toBeUndefined();
    expect(store.count()).toBe(0);
    store.close();
  });
});

describe('StoreGuard', () => {
  it('stops using a file SQLite calls damaged and says so once; a full disk only fails that call', () => {
    const damaged: string[] = [];
    const logged: string[] = [];
    const guard = new StoreGuard(
      '/x/pages.sqlite',
      (line) => logged.push(line),
      false,
      (reason) => damaged.push(reason),
    );
    const full = () => {
      throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
    };
    expect(guard.run('write', full)).toBeUndefined();
    expect(guard.run('read', () => 1)).toBe(1);
    expect(guard.broken).toBe(false);

    const corrupt = () => {
      throw Object.assign(new Error('database disk image is malformed'), { code: 'SQLITE_CORRUPT_INDEX' });
    };
    expect(guard.run('read', corrupt)).toBeUndefined();
    expect(guard.broken).toBe(true);
    let ran = false;
    expect(
      guard.run('read', () => {
        ran = true;
        return 1;
      }),
    ).toBeUndefined();
    expect(ran).toBe(false);
    expect(damaged).toEqual(['database disk image is malformed']);
  });
});
