import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { STORE_FILE_NAME } from './store-schema.ts';
import { HOT_PAGES_WINDOW_MS, PageStore, STALE_RECHECK_MS } from './store.ts';
import { dropStoredPages, type WholePage } from './store-file.ts';
import { openStoreFile } from './store-open.ts';
import { versionIn } from './page-tags.ts';
import { trackTempDirs } from '../../../tests/support/temp-dirs.ts';

const tempDir = trackTempDirs('page-store-sharing-');
const html = (text: string) => Buffer.from(`<!doctype html><title>${text}</title>`);

/** Two stores on one directory stand for two processes (or two servers) sharing the files. */
function twoStores() {
  const dir = tempDir();
  const one = new PageStore({ dir, buildId: 'b1' });
  const two = new PageStore({ dir, buildId: 'b1' });
  return { dir, one, two, close: () => (one.close(), two.close()) };
}

/** A page as the store file takes it, under a key of `who`'s own. */
const storedPage = (who: string, i: number): WholePage => {
  const body = html(`${who} ${i}`);
  return {
    key: `/${who}/${i}`,
    contentType: 'text/html',
    etag: `"${i}"`,
    body,
    gzip: body,
    br: body,
    tags: { names: ['nav'], versions: [1] },
    renderedAt: i,
    buildId: 'b1',
  };
};

/**
 * Two processes' stores, the first having stored /blog/1 ("old", with `tags`) and the second
 * holding it in memory; `versionCheckMs` 0: each looks at the file's versions at every read.
 */
function heldByTheSecond(tags: string[], versionCheckMs = 0) {
  const dir = tempDir();
  const one = new PageStore({ dir, buildId: 'b1', versionCheckMs });
  const two = new PageStore({ dir, buildId: 'b1', versionCheckMs });
  const store = (text: string) => one.put('/blog/1', { contentType: 'text/html', body: html(text), tags }, one.beginRender());
  store('old');
  const answered = () => two.get('/blog/1')!.body.toString();
  expect(answered()).toContain('old');
  return { one, two, store, answered, close: () => (one.close(), two.close()) };
}

/** Runs `test` with performance.now() under the test's control. */
async function withFakeClock(test: () => void | Promise<void>): Promise<void> {
  vi.useFakeTimers({ toFake: ['performance'] });
  try {
    await test();
  } finally {
    vi.useRealTimers();
  }
}

/** Pages the other process stores. */
const OTHER_PAGES = 500;

// Stores pages into the file at argv[1] from another process, as a second serving process does:
// a write, then a turn of its event loop (a serving process renders between its stores). Two
// loops with no pause between writes would hold the write lock nearly all the time, and SQLite's
// wait for it is not fair: on a starved machine one writer can wait out busy_timeout (seen in CI
// with 8 busy loops beside the suite; 0.7 s measured), which no serving process does. Paced, the
// writes still overlap: with deferred transactions, a third of them failed.
const OTHER_PROCESS = `
  const { openStoreFile } = await import(${JSON.stringify(new URL('./store-open.ts', import.meta.url).href)});
  const file = openStoreFile(process.argv[1]);
  const html = (text) => Buffer.from('<!doctype html><title>' + text + '</title>');
  let failed = 0;
  process.stdout.write('ready\\n');
  for (let i = 0; i < ${OTHER_PAGES}; i++) {
    const body = html('other ' + i);
    try {
      file.writePages([{ page: { key: '/other/' + i, contentType: 'text/html', etag: '"' + i + '"', body, gzip: body, br: body, tags: { names: ['nav'], versions: [1] }, renderedAt: i, buildId: 'b1' }, size: body.length }]);
    } catch (error) {
      failed++;
      process.stdout.write('error ' + String(error) + '\\n');
    }
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  file.close();
  process.stdout.write('failed ' + failed + '\\n');
`;

describe('PageStore shared by several processes', () => {
  it('never fails a write because another process wrote at the same time', async () => {
    const dir = tempDir();
    const ours = openStoreFile(dir);
    const child = spawn(process.execPath, ['--input-type=module', '-e', OTHER_PROCESS, dir], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    await expect.poll(() => output.includes('ready') || child.exitCode !== null, { timeout: 60_000 }).toBe(true);
    expect(output).toContain('ready');
    let written = 0;
    const failures: string[] = [];
    // Keep writing for as long as the other process does, so the two interleave, paced as it is.
    while (child.exitCode === null || written < 200) {
      try {
        const page = storedPage('ours', written);
        ours.writePages([{ page, size: page.body.length }]);
      } catch (error) {
        failures.push(String(error));
      }
      written++;
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    await exited;
    ours.close();
    expect(output).toContain('failed 0');
    expect(failures).toEqual([]);
    const check = openStoreFile(dir);
    expect(check.countPages()).toBe(OTHER_PAGES + written);
    check.close();
  }, 120_000);

  it("writes a page once another process's write is over, not failing because that one committed first", async () => {
    const dir = tempDir();
    const logged: string[] = [];
    const store = new PageStore({ dir, buildId: 'b1', log: (line) => logged.push(line) });
    // Another process holds the file's write lock for a moment, then commits.
    const holder = `
      const SQLite = require('better-sqlite3');
      const db = new SQLite(${JSON.stringify(path.join(dir, STORE_FILE_NAME))});
      db.exec("begin immediate; insert into meta (key, value) values ('other', '1')");
      process.stdout.write('locked\\n');
      setTimeout(() => { db.exec('commit'); db.close(); }, 300);
    `;
    const child = spawn(process.execPath, ['-e', holder], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve) => child.stdout!.once('data', () => resolve()));
    store.putMany(
      [1, 2].map((n) => ({
        key: `/blog/${n}`,
        input: { contentType: 'text/html', body: html(`page ${n}`), tags: [`blog:${n}`] },
        renderStartedAt: store.beginRender(),
      })),
      { keepInMemory: false },
    );
    await new Promise((resolve) => child.once('exit', resolve));
    expect(logged).toEqual([]);
    const other = new PageStore({ dir, buildId: 'b1' });
    expect(other.count()).toBe(2);
    other.close();
    store.close();
  });

  it('sees a bump made by another process at its next read once the bump is seen everywhere', async () => {
    const { one, two, close } = twoStores();
    one.put('/blog/1', { contentType: 'text/html', body: html('old'), tags: ['blog:1', 'nav'] }, one.beginRender());
    const held = two.get('/blog/1')!;
    expect(two.isFresh(held)).toBe(true);

    one.invalidate(['blog:1']);
    await one.seenEverywhere();
    const after = two.get('/blog/1')!;
    expect(two.isFresh(after)).toBe(false);
    expect(two.isStale('/blog/1')).toBe(true);
    close();
  });

  it("judges a reader's page by versions at most versionCheckMs old, and a change waits until every process looked again", async () => {
    const dir = tempDir();
    // Long enough that a look per read would not happen between the bump and the read below.
    const one = new PageStore({ dir, buildId: 'b1', versionCheckMs: 300 });
    const two = new PageStore({ dir, buildId: 'b1', versionCheckMs: 300 });
    one.put('/blog/1', { contentType: 'text/html', body: html('old'), tags: ['blog:1'] }, one.beginRender());
    expect(two.isFresh(two.get('/blog/1')!)).toBe(true);
    one.invalidate([], ['blog:1']);
    await one.seenEverywhere();
    const after = two.get('/blog/1')!;
    expect(two.isFresh(after)).toBe(false);
    expect(two.showsTakenDown(after)).toBe(true);
    one.close();
    two.close();
  });

  it('serves the copy another process rendered instead of its own stale one in memory', () => {
    const { one, two, close } = twoStores();
    one.put('/blog/1', { contentType: 'text/html', body: html('old'), tags: ['blog:1'] }, one.beginRender());
    expect(two.get('/blog/1')!.body.toString()).toContain('old');

    one.invalidate(['blog:1']);
    one.put('/blog/1', { contentType: 'text/html', body: html('new'), tags: ['blog:1'] }, one.beginRender());
    expect(two.isStale('/blog/1')).toBe(false);
    const page = two.get('/blog/1')!;
    expect(page.body.toString()).toContain('new');
    expect(two.isFresh(page)).toBe(true);
    close();
  });

  it('looks in the file for a fresher copy of a stale page it holds only when the file changed, in the seconds after a change', () => {
    const dir = tempDir();
    const one = new PageStore({ dir, buildId: 'b1' });
    // A look at the file's versions at every read: only what the file says decides below.
    const two = new PageStore({ dir, buildId: 'b1', versionCheckMs: 0 });
    one.put('/blog/1', { contentType: 'text/html', body: html('old'), tags: ['blog:1'] }, one.beginRender());
    expect(two.get('/blog/1')!.body.toString()).toContain('old');
    one.invalidate(['blog:1']);

    const file = (two as unknown as { file: { readPageTags: (key: string) => unknown } }).file;
    const rowReads = vi.spyOn(file, 'readPageTags');
    for (let i = 0; i < 5; i++) expect(two.isFresh(two.get('/blog/1')!)).toBe(false);
    expect(rowReads).toHaveBeenCalledTimes(1);

    // Another page stored: it might have been this one.
    one.put('/about', { contentType: 'text/html', body: html('about'), tags: ['nav'] }, one.beginRender());
    expect(two.get('/blog/1')!.body.toString()).toContain('old');
    expect(rowReads).toHaveBeenCalledTimes(2);

    one.put('/blog/1', { contentType: 'text/html', body: html('new'), tags: ['blog:1'] }, one.beginRender());
    const page = two.get('/blog/1')!;
    expect(page.body.toString()).toContain('new');
    expect(two.isFresh(page)).toBe(true);
    expect(rowReads).toHaveBeenCalledTimes(3);

    // A page read stale from the file (not held before) is not looked for again at once either.
    one.put('/blog/2', { contentType: 'text/html', body: html('two'), tags: ['blog:2'] }, one.beginRender());
    one.invalidate(['blog:2']);
    rowReads.mockClear();
    for (let i = 0; i < 3; i++) expect(two.isFresh(two.get('/blog/2')!)).toBe(false);
    expect(rowReads).toHaveBeenCalledTimes(0);
    one.close();
    two.close();
  });

  it('long after a change, looks in the file for a fresher copy of a stale page once in STALE_RECHECK_MS', () =>
    withFakeClock(() => {
      const { one, store, answered, close } = heldByTheSecond(['blog:1']);
      one.invalidate(['blog:1']);
      expect(answered()).toContain('old');
      vi.advanceTimersByTime(HOT_PAGES_WINDOW_MS + 10);
      expect(answered()).toContain('old');
      // Refreshed in the background by the other process: answered stale a while longer.
      store('new');
      vi.advanceTimersByTime(STALE_RECHECK_MS - 10);
      expect(answered()).toContain('old');
      vi.advanceTimersByTime(10);
      expect(answered()).toContain('new');
      close();
    }));

  it('never answers a page showing taken-down content from memory while the file has a fresher copy', () =>
    withFakeClock(() => {
      const { one, two, store, answered, close } = heldByTheSecond(['blog:1', 'nav']);
      // Taken down: the copy held is one never to answer (the reader's render waits), until the
      // other process stored the page without it, however long that took.
      one.invalidate([], ['blog:1']);
      expect(two.showsTakenDown(two.get('/blog/1')!)).toBe(true);
      vi.advanceTimersByTime(HOT_PAGES_WINDOW_MS + 10);
      expect(two.showsTakenDown(two.get('/blog/1')!)).toBe(true);
      store('without');
      expect(answered()).toContain('without');
      close();
    }));

  it("answers a change's page stored after another process found none fresher once the change announced it", async () => {
    const { one, two, store, close } = heldByTheSecond(['blog:1'], 300);
    const changedAt = performance.now();
    one.invalidate(['blog:1']);
    await one.seenEverywhere();
    // The change's hot page is not stored yet: the second process holds its stale copy.
    expect(two.isFresh(two.get('/blog/1')!)).toBe(false);
    store('new');
    expect(await one.announceStored(changedAt)).toBeNull();
    const page = two.get('/blog/1')!;
    expect(page.body.toString()).toContain('new');
    expect(two.isFresh(page)).toBe(true);
    close();
  });

  it("announces a change's hot pages that took longer than the seconds after it by a bump every process sees", () =>
    withFakeClock(async () => {
      const { one, store, answered, close } = heldByTheSecond(['blog:1']);
      const changedAt = performance.now();
      one.invalidate(['blog:1']);
      expect(answered()).toContain('old');
      vi.advanceTimersByTime(HOT_PAGES_WINDOW_MS + 10);
      expect(answered()).toContain('old');
      store('new');
      expect(answered()).toContain('old');
      expect(await one.announceStored(changedAt)).toBeNull();
      expect(answered()).toContain('new');
      close();
    }));

  it('does not store a render that began before another process bumped one of its tags', () => {
    const { one, two, close } = twoStores();
    const started = two.beginRender();
    one.invalidate(['blog:1']);
    expect(two.put('/blog/1', { contentType: 'text/html', body: html('old'), tags: ['blog:1'] }, started)).toBeNull();
    const page = two.put('/blog/1', { contentType: 'text/html', body: html('new'), tags: ['blog:1'] }, two.beginRender())!;
    expect(one.isFresh(one.get('/blog/1')!)).toBe(true);
    expect(versionIn(page.tags, 'blog:1')).toBe(1);
    close();
  });

  it('keeps versions rising when both processes bump the same tag', async () => {
    const { one, two, close } = twoStores();
    one.invalidate(['nav']);
    two.invalidate(['nav']);
    one.invalidate(['nav']);
    await one.seenEverywhere();
    const a = one.put('/', { contentType: 'text/html', body: html('home'), tags: ['nav'] }, one.beginRender())!;
    expect(versionIn(a.tags, 'nav')).toBe(3);
    expect(two.isFresh(two.get('/')!)).toBe(true);
    two.invalidate(['nav']);
    await two.seenEverywhere();
    expect(one.isFresh(one.get('/')!)).toBe(false);
    close();
  });

  it("sees another process's take-down at its next read: an older page may no longer be answered stale, an edited one may", async () => {
    const { dir, one, two, close } = twoStores();
    const put = (store: PageStore, key: string, text: string, tags: string[]) =>
      store.put(key, { contentType: 'text/html', body: html(text), tags }, store.beginRender())!;
    put(one, '/blog/1', 'article', ['blog:1', 'nav']);
    put(one, '/blogs?page=4', 'list', ['blog:1', 'blog:2', 'nav']);
    const held = two.get('/blog/1')!;
    const list = two.get('/blogs?page=4')!;

    // An edit: stale, still answerable while it is refreshed.
    one.invalidate(['blog:2']);
    await one.seenEverywhere();
    expect(two.isFresh(two.get('/blogs?page=4')!)).toBe(false);
    expect(two.showsTakenDown(list)).toBe(false);

    // A take-down, in the same file: every page older than it shows what was taken down.
    one.invalidate([], ['blog:1']);
    await one.seenEverywhere();
    expect(two.get('/blog/1')).toBe(held);
    expect(two.showsTakenDown(held)).toBe(true);
    expect(two.showsTakenDown(two.get('/blogs?page=4')!)).toBe(true);
    expect(one.showsTakenDown(held)).toBe(true);
    // A page rendered after it does not, even once a later edit staled it.
    const rendered = put(two, '/blog/1', 'article again', ['blog:1', 'nav']);
    one.invalidate(['blog:1']);
    await one.seenEverywhere();
    expect(two.isFresh(two.get('/blog/1')!)).toBe(false);
    expect(two.showsTakenDown(rendered)).toBe(false);
    // A process that opens the file later knows of it too.
    const three = new PageStore({ dir, buildId: 'b1' });
    expect(three.showsTakenDown(list)).toBe(true);
    expect(three.showsTakenDown(rendered)).toBe(false);
    three.close();
    close();
  });

  it('forgets its memory copies when another process dropped the stored pages, at its next look at the file', () => {
    const { dir, one, two, close } = twoStores();
    one.put('/a', { contentType: 'text/html', body: html('a'), tags: ['x'] }, one.beginRender());
    expect(two.get('/a')).toBeDefined();
    dropStoredPages(dir, 2);
    two.syncVersions();
    expect(two.get('/a')).toBeUndefined();
    expect(two.stats().memoryPages).toBe(0);
    close();
  });

  it('takes a change its file could not carry from the process that made it, and judges its own pages by it', () => {
    const dir = tempDir();
    const one = new PageStore({ dir, buildId: 'b1', failWrites: true, log: () => undefined });
    const two = new PageStore({ dir, buildId: 'b1', failWrites: true, log: () => undefined });
    two.put('/blog/1', { contentType: 'text/html', body: html('article'), tags: ['blog:1'] }, two.beginRender());
    two.put('/blog/2', { contentType: 'text/html', body: html('other'), tags: ['blog:2'] }, two.beginRender());
    const held = two.get('/blog/1')!;
    const inFlight = two.beginRender();

    // The file took nothing: two cannot learn of it there, so one hands the bumps over.
    const untold = one.invalidate([], ['blog:1']);
    expect(untold).toEqual([['blog:1', 1, true]]);
    two.syncVersions();
    expect(two.isFresh(held)).toBe(true);

    two.invalidateFromSibling(untold!);
    expect(two.isFresh(held)).toBe(false);
    expect(two.showsTakenDown(held)).toBe(true);
    expect(two.isFresh(two.get('/blog/2')!)).toBe(true);
    // A render that began before it is not kept, and the next start drops the file's pages.
    expect(two.put('/blog/1', { contentType: 'text/html', body: html('old'), tags: ['blog:1'] }, inFlight)).toBeNull();
    expect(two.isTrusted()).toBe(false);
    // An edit too: the pages it rendered fresh never reached the file, so this process cannot take
    // them from it, and its own copy is never answered stale: a reader here waits for a render.
    const other = two.get('/blog/2')!;
    const edit = one.invalidate(['blog:2']);
    expect(edit).toEqual([['blog:2', 1, false]]);
    two.invalidateFromSibling(edit!);
    expect(two.isFresh(other)).toBe(false);
    expect(two.showsTakenDown(other)).toBe(true);
    // Nor is the process that made the edit's own copy: the fresh pages another process rendered
    // for it (a change's hot pages often are) cannot reach it through the file.
    one.put('/blog/3', { contentType: 'text/html', body: html('third'), tags: ['blog:3'] }, one.beginRender());
    const own = one.get('/blog/3')!;
    expect(one.invalidate(['blog:3'])).toEqual([['blog:3', 1, false]]);
    expect(one.isFresh(own)).toBe(false);
    expect(one.showsTakenDown(own)).toBe(true);
    // When the file does take a change, there is nothing to hand over.
    const writable = new PageStore({ dir: tempDir(), buildId: 'b1' });
    expect(writable.invalidate(['blog:1'])).toBeNull();
    writable.close();
    one.close();
    two.close();
  });
});
