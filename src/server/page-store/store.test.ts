import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import path from 'node:path';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import SQLite from 'better-sqlite3';
import { PageStore } from './store.ts';
import { createStoreSchema, STORE_CACHE_KIB, STORE_FILE_NAME, STORE_PAGE_SIZE } from './store-schema.ts';
import { trackTempDirs } from '../../../tests/support/temp-dirs.ts';

const tempDir = trackTempDirs('page-store-test-');

const html = (text: string) => Buffer.from(`<!doctype html><title>${text}</title><p>${text.repeat(50)}</p>`);

describe('PageStore', () => {
  it('stores a page as rendered and keeps an encoding made later with it, in memory and in the file, where brotli replaces the body', async () => {
    const dir = tempDir();
    const store = new PageStore({ dir, buildId: 'b1' });
    const page = store.put(
      '/blog/1',
      { contentType: 'text/html', body: html('one'), tags: ['blog:1', 'nav'] },
      store.beginRender(),
    )!;
    expect(page.gzip).toBeNull();
    expect(page.br).toBeNull();
    expect(store.isFresh(store.get('/blog/1')!)).toBe(true);
    const diskBefore = store.stats().diskBytes;
    const br = zlib.brotliCompressSync(page.body);
    store.keepEncoding(page, 'br', br);
    // Made twice (two readers at once): the first is kept.
    store.keepEncoding(store.get('/blog/1')!, 'br', zlib.brotliCompressSync(page.body));
    expect(store.get('/blog/1')!.br).toBe(br);
    expect(store.get('/blog/1')!.gzip).toBeNull();
    // Written to the file with the others made meanwhile, at the next turn of the event loop.
    await new Promise((resolve) => setImmediate(resolve));
    expect(store.stats().diskBytes).toBe(diskBefore + br.length - page.body.length);
    // The copy in memory keeps its body: readers of it pay no decompression.
    expect(store.get('/blog/1')!.body).toBe(page.body);
    store.close();

    const file = new SQLite(path.join(dir, STORE_FILE_NAME), { readonly: true });
    expect(file.prepare('select body is null as dropped, length(br) as br from pages').get()).toEqual({
      dropped: 1,
      br: br.length,
    });
    file.close();
    const reopened = new PageStore({ dir, buildId: 'b1' });
    const read = reopened.get('/blog/1')!;
    expect(read.br!.equals(br)).toBe(true);
    expect(read.gzip).toBeNull();
    // Made from the brotli copy, for the caller who takes the page whole.
    expect(read.body.equals(page.body)).toBe(true);
    reopened.close();
  });

  it('never waits for the disk on a commit: the store is a cache that a crash marker drops', () => {
    const db = new SQLite(path.join(tempDir(), STORE_FILE_NAME));
    createStoreSchema(db);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('synchronous', { simple: true })).toBe(0);
    db.close();
  });

  it("keeps SQLite's own cache of the file small: the page memory holds what readers take", () => {
    const db = new SQLite(path.join(tempDir(), STORE_FILE_NAME));
    const before = db.pragma('cache_size', { simple: true });
    createStoreSchema(db);
    expect(db.pragma('cache_size', { simple: true })).toBe(-STORE_CACHE_KIB);
    expect(-STORE_CACHE_KIB).toBeGreaterThan(before as number);
    db.close();
  });

  const OLD_COMMON = `key text primary key, content_type text not null, etag text not null,
    tags text not null, rendered_at integer not null, build_id text not null,
    size integer not null, accessed_at integer not null`;
  it.each([
    [
      'whose pages had to carry both encodings',
      'body blob not null, gzip blob not null, br blob not null',
      "x'00', x'00', x'00'",
    ],
    [
      'whose copies come before its small columns (each read walked the whole row)',
      'body blob not null, gzip blob, br blob, policy text, gzip_sum text, br_sum text',
      "x'00', null, null, null, null, null",
    ],
  ])('starts afresh from a store file %s', (_, copies, values) => {
    const dir = tempDir();
    const old = new SQLite(path.join(dir, STORE_FILE_NAME));
    old.exec(`create table pages (${OLD_COMMON}, ${copies});
      insert into pages values ('/old', 'text/html', '"e"', '{}', 1, 'b1', 3, 1, ${values});`);
    old.close();
    const store = new PageStore({ dir, buildId: 'b1' });
    expect(store.count()).toBe(0);
    const page = store.put('/blog/1', { contentType: 'text/html', body: html('one'), tags: ['blog:1'] }, store.beginRender());
    expect(page?.br).toBeNull();
    expect(store.count()).toBe(1);
    store.close();
    const file = new SQLite(path.join(dir, STORE_FILE_NAME), { readonly: true });
    const columns = (file.prepare("select name from pragma_table_info('pages')").all() as Array<{ name: string }>).map(
      (c) => c.name,
    );
    expect(columns.slice(-3)).toEqual(['br', 'gzip', 'body']);
    file.close();
  });

  it("keeps a page's narrowed policy with it, and keeps the pages of a file from before policies were stored", () => {
    const dir = tempDir();
    const old = new SQLite(path.join(dir, STORE_FILE_NAME));
    old.exec(`
      create table pages (
        key text primary key, content_type text not null, etag text not null,
        tags text not null, rendered_at integer not null, build_id text not null,
        size integer not null, accessed_at integer not null,
        body blob not null, gzip blob, br blob
      );
    `);
    old.close();
    let store = new PageStore({ dir, buildId: 'b1' });
    const policy = "script-src 'self' 'sha256-AAAA'";
    store.put('/a', { contentType: 'text/html', body: html('a'), tags: ['x'], policy }, store.beginRender());
    store.put('/b', { contentType: 'text/html', body: html('b'), tags: ['x'] }, store.beginRender());
    store.close();
    store = new PageStore({ dir, buildId: 'b1' });
    expect(store.get('/a')?.policy).toBe(policy);
    expect(store.get('/b')?.policy).toBeNull();
    store.close();
  });

  it('keeps each policy once in the file, for all the pages it answers', () => {
    const dir = tempDir();
    let store = new PageStore({ dir, buildId: 'b1' });
    const article = "script-src 'self' 'sha256-AAAA'";
    const list = "script-src 'self' 'sha256-BBBB'";
    for (let n = 0; n < 5; n++)
      store.put(
        `/blog/${n}`,
        { contentType: 'text/html', body: html(`a${n}`), tags: ['x'], policy: article },
        store.beginRender(),
      );
    store.put('/blogs', { contentType: 'text/html', body: html('list'), tags: ['x'], policy: list }, store.beginRender());
    store.close();
    const file = new SQLite(path.join(dir, STORE_FILE_NAME), { readonly: true });
    expect((file.prepare('select text from policies order by id').pluck().all() as string[]).sort()).toEqual([article, list]);
    file.close();
    store = new PageStore({ dir, buildId: 'b1' });
    expect(store.get('/blog/3')?.policy).toBe(article);
    expect(store.get('/blogs', ['identity'])?.policy).toBe(list);
    store.close();
  });

  it('replaces a file of an older layout with a new one of 16 KB pages when no other process has it open', () => {
    const makeOld = () => {
      const dir = tempDir();
      const old = new SQLite(path.join(dir, STORE_FILE_NAME));
      old.pragma('page_size = 4096');
      old.exec(`create table pages (${OLD_COMMON}, body blob not null, gzip blob, br blob, policy text, gzip_sum text, br_sum text);
        insert into pages values ('/old', 'text/html', '"e"', '{}', 1, 'b1', 3, 1, x'00', null, null, null, null, null);`);
      old.close();
      return dir;
    };
    const pageSize = (dir: string) => {
      const file = new SQLite(path.join(dir, STORE_FILE_NAME), { readonly: true });
      try {
        return file.pragma('page_size', { simple: true });
      } finally {
        file.close();
      }
    };
    const lines: string[] = [];
    const alone = makeOld();
    new PageStore({ dir: alone, buildId: 'b1', setAside: true, log: (line) => lines.push(line) }).close();
    expect(pageSize(alone)).toBe(STORE_PAGE_SIZE);
    expect(lines.join('\n')).toMatch(/was made by an older version; started it afresh/);
    // Another process may have it open: its tables are rebuilt in place, in the pages it has.
    const shared = makeOld();
    const store = new PageStore({ dir: shared, buildId: 'b1', setAside: false });
    expect(store.count()).toBe(0);
    store.close();
    expect(pageSize(shared)).toBe(4096);
  });

  it('writes the encodings made for readers at the same time in one transaction, not one each', async () => {
    const dir = tempDir();
    const store = new PageStore({ dir, buildId: 'b1' });
    const pages = [1, 2, 3].map(
      (n) =>
        store.put(`/blog/${n}`, { contentType: 'text/html', body: html(`page ${n}`), tags: [`blog:${n}`] }, store.beginRender())!,
    );
    const reader = new SQLite(path.join(dir, STORE_FILE_NAME), { readonly: true });
    const inFile = () => (reader.prepare('select count(*) as n from pages where br is not null').get() as { n: number }).n;
    for (const page of pages) store.keepEncoding(page, 'br', zlib.brotliCompressSync(page.body));
    expect(inFile()).toBe(0);
    await new Promise((resolve) => setImmediate(resolve));
    expect(inFile()).toBe(3);
    reader.close();
    store.close();
  });

  it('takes an encoding another process made from the file, for the same version of the page only', async () => {
    const dir = tempDir();
    const one = new PageStore({ dir, buildId: 'b1' });
    const other = new PageStore({ dir, buildId: 'b1' });
    const page = one.put('/blog/1', { contentType: 'text/html', body: html('one'), tags: ['blog:1'] }, one.beginRender())!;
    const held = other.get('/blog/1')!;
    expect(other.copyOf(held, 'br')).toBeNull();
    one.keepEncoding(page, 'br', zlib.brotliCompressSync(page.body));
    await new Promise((resolve) => setImmediate(resolve));
    expect(other.copyOf(held, 'br')).not.toBeNull();
    expect(zlib.brotliDecompressSync(other.get('/blog/1')!.br!).equals(held.body)).toBe(true);
    expect(other.copyOf(held, 'gzip')).toBeNull();
    one.close();
    other.close();
  });

  it('never adds an encoding made from an older version of a page to a newer one', async () => {
    const dir = tempDir();
    const store = new PageStore({ dir, buildId: 'b1', memoryBytes: 0 });
    const old = store.put('/blog/1', { contentType: 'text/html', body: html('old'), tags: ['blog:1'] }, store.beginRender())!;
    store.put('/blog/1', { contentType: 'text/html', body: html('new'), tags: ['blog:1'] }, store.beginRender());
    // The worker's brotli of the old version comes back after the new one was stored.
    store.keepEncoding(old, 'br', zlib.brotliCompressSync(old.body));
    await new Promise((resolve) => setImmediate(resolve));
    store.close();

    const reopened = new PageStore({ dir, buildId: 'b1' });
    const read = reopened.get('/blog/1')!;
    expect(read.body.toString()).toContain('new');
    expect(read.br).toBeNull();
    reopened.close();
  });

  it('stores a batch of pages at once, leaving out one whose tag changed during its render', () => {
    const dir = tempDir();
    const store = new PageStore({ dir, buildId: 'b1' });
    const before = store.beginRender();
    store.invalidate(['blog:2']);
    const after = store.beginRender();
    const page = (n: number, startedAt: number) => ({
      key: `/blog/${n}`,
      input: { contentType: 'text/html', body: html(`page ${n}`), tags: [`blog:${n}`, 'nav'] },
      renderStartedAt: startedAt,
    });
    const stored = store.putMany([page(1, before), page(2, before), page(3, after)], { keepInMemory: false });
    expect(stored.map((p) => p?.key ?? null)).toEqual(['/blog/1', null, '/blog/3']);
    store.close();
    const other = new PageStore({ dir, buildId: 'b1' });
    expect(other.count()).toBe(2);
    for (const key of ['/blog/1', '/blog/3']) {
      const read = other.get(key)!;
      expect(other.isFresh(read)).toBe(true);
      expect(read.body.toString()).toContain(`page ${key.slice('/blog/'.length)}`);
    }
    expect(other.get('/blog/2')).toBeUndefined();
    other.close();
  });

  it("replaces a page's tag rows by key, without scanning every page's tags", () => {
    const dir = tempDir();
    const store = new PageStore({ dir, buildId: 'b1' });
    store.put('/blog/1', { contentType: 'text/html', body: html('one'), tags: ['blog:1', 'nav'] }, store.beginRender());
    store.put('/blog/1', { contentType: 'text/html', body: html('uno'), tags: ['blog:1', 'list'] }, store.beginRender());
    expect(store.keysCarrying(['nav'])).toEqual([]);
    expect(store.keysCarrying(['list'])).toEqual(['/blog/1']);
    store.close();
    const file = new SQLite(path.join(dir, STORE_FILE_NAME), { readonly: true });
    const plan = (
      file.prepare('explain query plan delete from page_tags where key = ?').all('/blog/1') as Array<{ detail: string }>
    )
      .map((row) => row.detail)
      .join(' | ');
    file.close();
    expect(plan).toMatch(/USING (COVERING )?INDEX page_tags_by_key/);
  });

  it('invalidating a tag makes exactly the pages carrying it stale', () => {
    const store = new PageStore({ dir: tempDir(), buildId: 'b1' });
    store.put('/blog/1', { contentType: 'text/html', body: html('one'), tags: ['blog:1', 'nav'] }, store.beginRender());
    store.put('/blog/2', { contentType: 'text/html', body: html('two'), tags: ['blog:2', 'nav'] }, store.beginRender());
    store.invalidate(['blog:1']);
    expect(store.isFresh(store.get('/blog/1')!)).toBe(false);
    expect(store.isFresh(store.get('/blog/2')!)).toBe(true);
    store.invalidate(['nav']);
    expect(store.isFresh(store.get('/blog/2')!)).toBe(false);
    store.close();
  });

  it('hands a page only the nav and labelled tags left stale to a patch, with what it shows for each, recorded at the change', () => {
    const dir = tempDir();
    const store = new PageStore({ dir, buildId: 'b1' });
    const isName = (tag: string) => tag.startsWith('category-name:');
    const put = (key: string, tags: string[]) =>
      store.put(key, { contentType: 'text/html', body: html(key), tags }, store.beginRender());
    put('/blog/1', ['blog:1', 'nav', 'category-name:3']);
    put('/blog/2', ['blog:2', 'nav', 'category-name:4']);
    put('/blogs', ['list', 'nav', 'category-name:3']);
    put('/robots.txt', ['nav']);
    expect(store.patchFor('/blog/1', { chromeTag: 'nav', chromeTags: ['nav'], labelled: isName })).toBeNull(); // fresh

    store.invalidate(['nav', 'category-name:3'], [], [['category-name:3', 'Optics']]);
    expect(store.patchFor('/blog/1', { chromeTag: 'nav', chromeTags: ['nav'], labelled: isName })).toMatchObject({
      labels: [['category-name:3', 'Optics']],
    });
    expect(store.patchFor('/blog/2', { chromeTag: 'nav', chromeTags: ['nav'], labelled: isName })).toMatchObject({ labels: [] });
    // A stale tag the patch cannot mend: rendered.
    expect(store.patchFor('/blog/1', { chromeTag: 'nav', chromeTags: ['nav'], labelled: () => false })).toBeNull();
    // Renamed again before the refresh: the pages still show the first name; a page stored since shows the second.
    store.invalidate(['nav', 'category-name:3'], [], [['category-name:3', 'Lenses']]);
    expect(store.patchFor('/blogs', { chromeTag: 'nav', chromeTags: ['nav'], labelled: isName })).toMatchObject({
      labels: [['category-name:3', 'Optics']],
    });
    put('/blogs', ['list', 'nav', 'category-name:3']);
    store.invalidate(['nav', 'category-name:3'], [], [['category-name:3', 'Light']]);
    expect(store.patchFor('/blogs', { chromeTag: 'nav', chromeTags: ['nav'], labelled: isName })).toMatchObject({
      labels: [['category-name:3', 'Light']],
    });
    // A change that says nothing of what the pages showed (a category deleted): rendered.
    store.invalidate(['nav', 'category-name:4']);
    put('/blog/2', ['blog:2', 'nav', 'category-name:4']);
    store.invalidate(['nav', 'category-name:4']);
    expect(store.patchFor('/blog/2', { chromeTag: 'nav', chromeTags: ['nav'], labelled: isName })).toBeNull();
    // Renamed, deleted, its id taken by a new category that is renamed in turn: the pages from
    // before the delete named the old category, whatever the label of their version says.
    put('/blog/5', ['blog:5', 'nav', 'category-name:6']);
    store.invalidate(['nav', 'category-name:6'], [], [['category-name:6', 'Old']]);
    expect(store.patchFor('/blog/5', { chromeTag: 'nav', chromeTags: ['nav'], labelled: isName })).toMatchObject({
      labels: [['category-name:6', 'Old']],
    });
    store.invalidate(['nav', 'category-name:6', 'list']);
    store.invalidate(['nav', 'category-name:6'], [], [['category-name:6', 'New']]);
    expect(store.patchFor('/blog/5', { chromeTag: 'nav', chromeTags: ['nav'], labelled: isName })).toBeNull();
    store.close();

    // In the file, for every process: a store opened afresh reads the same labels.
    const reopened = new PageStore({ dir, buildId: 'b1' });
    expect(reopened.patchFor('/blog/1', { chromeTag: 'nav', chromeTags: ['nav'], labelled: isName })).toMatchObject({
      labels: [['category-name:3', 'Optics']],
    });
    reopened.close();
  });

  it('refuses a render that raced an invalidation of one of its tags', () => {
    const store = new PageStore({ dir: tempDir(), buildId: 'b1' });
    const started = store.beginRender();
    store.invalidate(['blog:1']);
    expect(store.put('/blog/1', { contentType: 'text/html', body: html('old'), tags: ['blog:1'] }, started)).toBeNull();
    expect(store.get('/blog/1')).toBeUndefined();
    const after = store.beginRender();
    expect(store.put('/blog/1', { contentType: 'text/html', body: html('new'), tags: ['blog:1'] }, after)).not.toBeNull();
    store.close();
  });

  it('keeps pages and tag versions across a restart, and drops them for a new build', () => {
    const dir = tempDir();
    let store = new PageStore({ dir, buildId: 'b1' });
    store.put('/a', { contentType: 'text/html', body: html('a'), tags: ['x'] }, store.beginRender());
    store.put('/b', { contentType: 'text/html', body: html('b'), tags: ['y'] }, store.beginRender());
    store.invalidate(['y']);
    store.close();

    store = new PageStore({ dir, buildId: 'b1' });
    expect(store.get('/a')?.body.toString()).toContain('<title>a</title>');
    expect(store.isFresh(store.get('/a')!)).toBe(true);
    expect(store.isFresh(store.get('/b')!)).toBe(false);
    store.close();

    store = new PageStore({ dir, buildId: 'b2' });
    expect(store.count()).toBe(0);
    store.close();
  });

  it('bounds the memory it holds for hot pages', () => {
    const store = new PageStore({ dir: tempDir(), buildId: 'b1', memoryBytes: 64 * 1024 });
    for (let i = 0; i < 200; i++) {
      const body = crypto.randomBytes(3000).toString('hex');
      store.put(`/p/${i}`, { contentType: 'text/html', body: Buffer.from(body), tags: [] }, store.beginRender());
    }
    const stats = store.stats();
    expect(stats.pages).toBe(200);
    expect(stats.memoryBytes).toBeLessThanOrEqual(64 * 1024);
    expect(stats.memoryPages).toBeLessThan(200);
    expect(store.get('/p/0')?.body.length).toBe(6000);
    store.close();
  });

  it('never leaves a partial page when the process is killed mid-write', async () => {
    const dir = tempDir();
    const writer = `
      import zlib from 'node:zlib';
      import { PageStore } from ${JSON.stringify(path.resolve(import.meta.dirname, 'store.ts'))};
      const store = new PageStore({ dir: ${JSON.stringify(dir)}, buildId: 'crash' });
      let i = 0;
      process.stdout.write('ready\\n');
      for (;;) {
        const text = String(i++).repeat(20000);
        const page = store.put('/page/' + (i % 7), { contentType: 'text/html', body: Buffer.from(text), tags: ['t'] }, store.beginRender());
        store.keepEncoding(page, 'gzip', zlib.gzipSync(page.body));
        store.keepEncoding(page, 'br', zlib.brotliCompressSync(page.body));
        process.stdout.write('w');
        await new Promise((resolve) => setImmediate(resolve));
      }
    `;
    const child = spawn(process.execPath, ['--input-type=module', '-e', writer], { stdio: ['ignore', 'pipe', 'inherit'] });
    // Killed while it writes: once it has stored every page a few times over, at whatever point
    // of its next write it has reached.
    await new Promise<void>((resolve) => {
      let written = 0;
      child.stdout!.on('data', (chunk: Buffer) => {
        written += chunk.toString().split('w').length - 1;
        if (written >= 30) resolve();
      });
    });
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));

    const store = new PageStore({ dir, buildId: 'crash' });
    let checked = 0;
    for (let k = 0; k < 7; k++) {
      const page = store.get(`/page/${k}`);
      if (!page) continue;
      const text = page.body.toString();
      // A whole page is one number repeated; its encodings decode to exactly the same bytes.
      expect(text.length % 20000).toBe(0);
      const unit = text.slice(0, text.length / 20000);
      expect(text).toBe(unit.repeat(20000));
      if (page.gzip) expect(zlib.gunzipSync(page.gzip).equals(page.body)).toBe(true);
      if (page.br) expect(zlib.brotliDecompressSync(page.br).equals(page.body)).toBe(true);
      checked++;
    }
    expect(checked).toBeGreaterThan(0);
    store.close();
  });
});
