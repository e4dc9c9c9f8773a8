import zlib from 'node:zlib';
import { describe, expect, it, vi } from 'vitest';
import { PageStore } from './store.ts';
import { PageRenderer } from './renderer.ts';
import { RenderFailed, type RenderPool, type RenderPriority } from './render-pool.ts';
import type { WorkerAnswer } from './render-worker.ts';
import type { PageEncoding } from './compress-page.ts';
import type { PagePatch, JobWork } from './render-protocol.ts';
import { trackTempDirs } from '../../../tests/support/temp-dirs.ts';
import { storableTags } from './astro-render.ts';
import { NOT_FOUND_KEY, storedStatusOf } from './not-found-page.ts';
import { pageInputOf } from './stored-page.ts';

const tempDir = trackTempDirs('page-renderer-test-');

function answer(key: string, text: string, status = 200): WorkerAnswer {
  const body = Buffer.from(`<!doctype html><title>${text}</title>`);
  const tags = status === 200 ? ['blog:1', 'nav'] : null;
  return {
    key,
    status,
    headers: { 'content-type': 'text/html', 'x-page-tags': 'blog:1,nav' },
    setsCookie: false,
    tags,
    body,
  };
}

/** The pool's side of the renderer, answering from a script: what each call answers, in order. */
function scriptedPool(script: Array<(key: string) => Promise<WorkerAnswer>>) {
  const calls: Array<{ key: string; priority: RenderPriority; encodings?: PageEncoding[]; patch?: PagePatch }> = [];
  const pool = {
    render(key: string, priority: RenderPriority = 'now', { encodings, patch }: JobWork = {}) {
      calls.push({ key, priority, ...(encodings?.length ? { encodings } : {}), ...(patch ? { patch } : {}) });
      return script.shift()!(key);
    },
    status: () => ({ workers: 1, queued: 0, running: 0, rendered: calls.length, failed: 0, replaced: 0 }),
  };
  return { pool: pool as unknown as RenderPool<WorkerAnswer>, calls };
}

describe('PageRenderer', () => {
  it('stores what a worker rendered, with the priority it was asked for', async () => {
    const store = new PageStore({ dir: tempDir(), buildId: 'b1' });
    const { pool, calls } = scriptedPool([async (key) => answer(key, 'one')]);
    const result = await new PageRenderer(store, pool).render('/blog/1', 'background');
    expect(result.page?.body.toString()).toContain('one');
    expect(store.isFresh(store.get('/blog/1')!)).toBe(true);
    // Brotli with every background render: the store keeps it instead of the body.
    expect(calls).toEqual([{ key: '/blog/1', priority: 'background', encodings: ['br'] }]);
    store.close();
  });

  it('hands a page only the nav left stale to its worker to patch, in its stored copy; any other stale page is rendered', async () => {
    const store = new PageStore({ dir: tempDir(), buildId: 'b1' });
    const tagged = async (key: string) => ({ ...answer(key, 'page'), tags: [key === '/blog/2' ? 'blog:2' : 'blog:1', 'nav'] });
    const { pool, calls } = scriptedPool([1, 2, 3, 4, 5].map(() => tagged));
    const renderer = new PageRenderer(store, pool);
    await renderer.render('/blog/1');
    await renderer.render('/blog/2');
    store.invalidate(['nav']);
    store.invalidate(['blog:2']);
    await renderer.render('/blog/1', 'background');
    await renderer.render('/blog/2', 'background');
    const [patched, rendered] = calls.slice(2);
    expect(patched!.patch).toMatchObject({ encoding: 'identity', contentType: 'text/html', tags: ['blog:1', 'nav'] });
    expect(Buffer.from(patched!.patch!.copy).toString()).toBe('<!doctype html><title>page</title>');
    // The versions the header and footer show: a later nav or settings change asks for new ones.
    expect(patched!.patch!.chrome).toMatch(/^nav@\d+ settings@\d+$/);
    expect(rendered).toEqual({ key: '/blog/2', priority: 'background', encodings: ['br'] });
    // Fresh pages are never patched, and a waited-for render is never a patch.
    store.invalidate(['nav']);
    await renderer.render('/blog/1');
    expect(calls[4]).toEqual({ key: '/blog/1', priority: 'now' });
    store.close();
  });

  it('hands a home page only the top-viewed list left stale to its worker to patch, and renders one an edit left stale too', async () => {
    const store = new PageStore({ dir: tempDir(), buildId: 'b1' });
    const home = async (key: string) => ({
      ...answer(key, 'home'),
      tags: ['list', 'nav', 'top-viewed', key === '/?page=2' ? 'blog:2' : 'blog:3'],
    });
    const { pool, calls } = scriptedPool([1, 2, 3, 4, 5, 6].map(() => home));
    const renderer = new PageRenderer(store, pool);
    await renderer.render('/?page=2');
    await renderer.render('/?page=3');
    store.invalidate(['top-viewed']);
    store.invalidate(['blog:3']);
    await renderer.render('/?page=2', 'background');
    await renderer.render('/?page=3', 'background');
    const [patched, rendered] = calls.slice(2);
    // The header and footer are fresh: only the list is patched, by a list rendered since this count of changes.
    expect(patched!.patch).toMatchObject({ chrome: null, labels: [], tags: ['list', 'nav', 'top-viewed', 'blog:2'] });
    expect(patched!.patch!.block).toMatch(/^\d+$/);
    expect(rendered).toEqual({ key: '/?page=3', priority: 'background', encodings: ['br'] });
    // The nav and the list both stale: both patched.
    store.invalidate(['nav', 'top-viewed']);
    await renderer.render('/?page=2', 'background');
    expect(calls[4]!.patch!.chrome).toMatch(/^nav@\d+ settings@\d+$/);
    expect(Number(calls[4]!.patch!.block)).toBeGreaterThan(Number(patched!.patch!.block));
    store.close();
  });

  it('hands a home page that an edit of an article only its ticker or top-viewed list shows left stale to its worker to patch', async () => {
    const store = new PageStore({ dir: tempDir(), buildId: 'b1' });
    const home = async (key: string) => ({ ...answer(key, 'home'), tags: ['list', 'nav', 'top-viewed', 'blog:2', 'in-block:9'] });
    const { pool, calls } = scriptedPool([1, 2, 3].map(() => home));
    const renderer = new PageRenderer(store, pool);
    await renderer.render('/?page=2');
    store.invalidate(['blog:9', 'link:9', 'in-block:9']);
    await renderer.render('/?page=2', 'background');
    expect(calls[1]!.patch).toMatchObject({ chrome: null, labels: [] });
    expect(calls[1]!.patch!.block).toMatch(/^\d+$/);
    // One of the page's own articles: rendered.
    store.invalidate(['blog:2', 'in-block:9']);
    await renderer.render('/?page=2', 'background');
    expect(calls[2]).toEqual({ key: '/?page=2', priority: 'background', encodings: ['br'] });
    store.close();
  });

  it('stores background renders several to a transaction, without pushing them into memory', async () => {
    const store = new PageStore({ dir: tempDir(), buildId: 'b1' });
    const keys = ['/blog/1', '/blog/2', '/blog/3', '/blog/4'];
    const { pool } = scriptedPool([...keys, '/hot'].map(() => async (key: string) => answer(key, `page ${key}`)));
    const renderer = new PageRenderer(store, pool);
    const batches: number[] = [];
    const putMany = store.putMany.bind(store);
    store.putMany = (entries, options) => {
      batches.push(entries.length);
      return putMany(entries, options);
    };
    const results = await Promise.all(keys.map((key) => renderer.render(key, 'background')));
    expect(results.map((r) => r.page?.key)).toEqual(keys);
    expect(batches).toEqual([4]);
    expect(store.stats()).toMatchObject({ pages: 4, memoryPages: 0 });
    for (const key of keys) expect(store.isFresh(store.get(key)!)).toBe(true);
    // A reader's render (or a save's) is stored at once and kept in memory.
    await renderer.render('/hot');
    expect(batches).toEqual([4, 1]);
    expect(store.stats().memoryPages).toBe(1 + keys.length);
    store.close();
  });

  it('writes the background pages still gathering for their batch when told to, before the store closes', async () => {
    // The batch's wait never ends on its own here, however slow the machine: only the flush writes it.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const store = new PageStore({ dir: tempDir(), buildId: 'b1' });
      const { pool } = scriptedPool([async (key) => answer(key, 'gathered')]);
      const renderer = new PageRenderer(store, pool);
      const rendered = renderer.render('/blog/1', 'background');
      // The worker answered; the page now waits for its batch, not yet in the store.
      await new Promise((resolve) => setImmediate(resolve));
      expect(store.get('/blog/1')).toBeUndefined();
      renderer.flushWrites();
      expect(store.get('/blog/1')?.body?.toString()).toContain('gathered');
      expect((await rendered).page).not.toBeNull();
      store.close();
    } finally {
      vi.useRealTimers();
    }
  });

  it("drops a reader's wanted encoding once another process stored a newer version of the page than the one that reader took", async () => {
    const dir = tempDir();
    const store = new PageStore({ dir, buildId: 'b1' });
    const sibling = new PageStore({ dir, buildId: 'b1' });
    const { pool, calls } = scriptedPool([async (key) => answer(key, 'first'), async (key) => answer(key, 'refreshed here')]);
    const renderer = new PageRenderer(store, pool);
    const held = (await renderer.render('/blog/1')).page!;
    store.invalidate(['blog:1']);
    // A reader here took gzip of the stale page, and its refresh went to the sibling, which stored
    // a newer version without gzip (nobody asked it there).
    renderer.wantEncoding(held, 'gzip');
    // A version is named by when it was stored.
    while (Date.now() <= held.renderedAt) await new Promise((resolve) => setTimeout(resolve, 1));
    const startedAt = sibling.beginRender();
    expect(sibling.put('/blog/1', pageInputOf(answer('/blog/1', 'refreshed there'))!, startedAt)).not.toBeNull();
    store.invalidate(['blog:1']);
    await renderer.render('/blog/1', 'background');
    // Brotli only: the want was of a version no longer stored; nobody took gzip of the newer one.
    expect(calls.map(({ key, priority, encodings }) => [key, priority, encodings ?? []])).toEqual([
      ['/blog/1', 'now', []],
      ['/blog/1', 'background', ['br']],
    ]);
    sibling.close();
    store.close();
  });

  it('has a background render make brotli and the encodings readers took of the page before; a waited-for render makes none', async () => {
    const store = new PageStore({ dir: tempDir(), buildId: 'b1' });
    const withBr = async (key: string) => ({ ...answer(key, 'refreshed'), br: zlib.brotliCompressSync('refreshed') });
    const { pool, calls } = scriptedPool([
      async (key) => answer(key, 'first'),
      async (key) => answer(key, 'unread'),
      withBr,
      async (key) => answer(key, 'unread again'),
      async (key) => answer(key, 'now'),
    ]);
    const renderer = new PageRenderer(store, pool);
    const read = (await renderer.render('/blog/1')).page!;
    const unread = (await renderer.render('/blog/2')).page!;
    store.keepEncoding(read, 'br', zlib.brotliCompressSync(read.body));
    store.invalidate(['blog:1']);
    const refreshed = await renderer.render('/blog/1', 'background');
    // A reader took gzip of /blog/2 while it was stale: its refresh makes it.
    renderer.wantEncoding(unread, 'gzip');
    await renderer.render('/blog/2', 'background');
    await renderer.render('/blog/1');
    expect(calls.map(({ key, priority, encodings }) => [key, priority, encodings ?? []])).toEqual([
      ['/blog/1', 'now', []],
      ['/blog/2', 'now', []],
      ['/blog/1', 'background', ['br']],
      ['/blog/2', 'background', ['br', 'gzip']],
      ['/blog/1', 'now', []],
    ]);
    expect(refreshed.page?.br && zlib.brotliDecompressSync(refreshed.page.br).toString()).toBe('refreshed');
    store.close();
  });

  it('has a worker make an encoding a reader asked for, once however many ask, and keeps it with the page', async () => {
    const store = new PageStore({ dir: tempDir(), buildId: 'b1' });
    let release!: () => void;
    const bodies: Uint8Array[] = [];
    const { pool, calls } = scriptedPool([
      async (key) => answer(key, 'read'),
      (key) =>
        new Promise<WorkerAnswer>((resolve) => {
          release = () =>
            resolve({
              key,
              status: 200,
              headers: {},
              setsCookie: false,
              tags: null,
              body: new Uint8Array(0),
              br: zlib.brotliCompressSync(Buffer.from(bodies[0]!)),
            });
        }),
    ]);
    const render = pool.render.bind(pool);
    pool.render = (key, priority, work) => {
      if (work?.body) bodies.push(work.body);
      return render(key, priority, work);
    };
    const renderer = new PageRenderer(store, pool);
    const page = (await renderer.render('/blog/1')).page!;
    renderer.encodeLater(page, 'br');
    renderer.encodeLater(store.get('/blog/1')!, 'br');
    expect(calls.slice(1)).toEqual([{ key: '/blog/1', priority: 'background', encodings: ['br'] }]);
    expect(Buffer.from(bodies[0]!).equals(page.body)).toBe(true);
    release();
    await new Promise((resolve) => setImmediate(resolve));
    expect(zlib.brotliDecompressSync(store.get('/blog/1')!.br!).equals(page.body)).toBe(true);
    // Made: nobody asks again.
    renderer.encodeLater(store.get('/blog/1')!, 'br');
    expect(calls).toHaveLength(2);
    store.close();
  });

  it('keeps few encodings waiting for a worker, so a refresh behind them is not held up', () => {
    const store = new PageStore({ dir: tempDir(), buildId: 'b1' });
    const { pool, calls } = scriptedPool(Array.from({ length: 40 }, () => () => new Promise<WorkerAnswer>(() => {})));
    const renderer = new PageRenderer(store, pool);
    for (let n = 1; n <= 40; n++) {
      const page = store.put(
        `/blog/${n}`,
        { contentType: 'text/html', body: Buffer.from(`page ${n}`), tags: [`blog:${n}`] },
        store.beginRender(),
      )!;
      renderer.encodeLater(page, 'br');
    }
    expect(calls).toHaveLength(32);
    // No reader waits for those: a reader asking now still waits for its own (made ahead of them).
    expect(renderer.encodingsUnderWay).toBe(0);
    void renderer.encode(store.get('/blog/40')!, 'gzip', 'now');
    expect(renderer.encodingsUnderWay).toBe(1);
    expect(calls.at(-1)).toMatchObject({ key: '/blog/40', priority: 'now' });
    store.close();
  });

  it('does not store a render that was asked for before a change of its tags', async () => {
    const store = new PageStore({ dir: tempDir(), buildId: 'b1' });
    let release!: () => void;
    const { pool } = scriptedPool([
      (key) => new Promise<WorkerAnswer>((resolve) => (release = () => resolve(answer(key, 'old data')))),
    ]);
    const rendering = new PageRenderer(store, pool).render('/blog/1');
    store.invalidate(['blog:1']);
    release();
    const result = await rendering;
    expect(result.page).toBeNull();
    expect(result.status).toBe(200);
    expect(store.get('/blog/1')).toBeUndefined();
    store.close();
  });

  it('renders again, answering only the second render, when another process took down content of the page during the first', async () => {
    const dir = tempDir();
    const store = new PageStore({ dir, buildId: 'b1' });
    // Another serving process on the same files, where the take-down is saved.
    const other = new PageStore({ dir, buildId: 'b1' });
    let release!: () => void;
    const { pool, calls } = scriptedPool([
      (key) => new Promise<WorkerAnswer>((resolve) => (release = () => resolve(answer(key, 'with the article')))),
      async (key) => answer(key, 'without it'),
    ]);
    const rendering = new PageRenderer(store, pool).render('/blog/1');
    other.invalidate([], ['blog:1']);
    release();
    const result = await rendering;
    expect(result.body.toString()).toContain('without it');
    expect(result.page?.body.toString()).toContain('without it');
    expect(calls).toHaveLength(2);
    other.close();
    store.close();
  });

  it('answers a 500 for a render whose worker died twice, and keeps the stored page', async () => {
    const store = new PageStore({ dir: tempDir(), buildId: 'b1' });
    const { pool } = scriptedPool([
      async (key) => answer(key, 'kept'),
      (key) => Promise.reject(new RenderFailed(key, 'its render worker died twice')),
    ]);
    const renderer = new PageRenderer(store, pool);
    await renderer.render('/blog/1');
    const failed = await renderer.render('/blog/1');
    expect(failed).toMatchObject({ page: null, status: 500 });
    expect(store.get('/blog/1')?.body.toString()).toContain('kept');
    store.close();
  });

  it('drops the stored page when the worker answers 404', async () => {
    const store = new PageStore({ dir: tempDir(), buildId: 'b1' });
    const { pool } = scriptedPool([async (key) => answer(key, 'here'), async (key) => answer(key, 'gone', 404)]);
    const renderer = new PageRenderer(store, pool);
    await renderer.render('/blog/1');
    expect((await renderer.render('/blog/1')).status).toBe(404);
    expect(store.get('/blog/1')).toBeUndefined();
    store.close();
  });

  it('stores the 404 page with its 404, as the worker judges it storable, and keeps it', async () => {
    const rendered = { status: 404, headers: { 'x-page-tags': 'nav,settings' }, setsCookie: false };
    expect(storableTags(rendered)).toBeNull();
    expect(storableTags(rendered, storedStatusOf(NOT_FOUND_KEY))).toEqual(['nav', 'settings']);
    expect(storedStatusOf('/blog/1')).toBe(200);
    const store = new PageStore({ dir: tempDir(), buildId: 'b1' });
    const notFound = (key: string): WorkerAnswer => ({ ...answer(key, 'Page Not Found', 404), tags: ['nav', 'settings'] });
    const { pool } = scriptedPool([async (key) => notFound(key), async (key) => notFound(key)]);
    const renderer = new PageRenderer(store, pool);
    for (let i = 0; i < 2; i++) {
      const result = await renderer.render(NOT_FOUND_KEY);
      expect(result.status).toBe(404);
      expect(result.page?.body.toString()).toContain('Page Not Found');
      expect(store.get(NOT_FOUND_KEY)?.body.toString()).toContain('Page Not Found');
    }
    store.close();
  });

  it('renders again for a save when the render under way was asked for before the change', async () => {
    const store = new PageStore({ dir: tempDir(), buildId: 'b1' });
    let release!: () => void;
    const { pool, calls } = scriptedPool([
      (key) => new Promise<WorkerAnswer>((resolve) => (release = () => resolve(answer(key, 'old data')))),
      async (key) => answer(key, 'new data'),
    ]);
    const renderer = new PageRenderer(store, pool);
    const background = renderer.render('/blog/1', 'background');
    store.invalidate(['blog:1']);
    const hot = await renderer.render('/blog/1');
    release();
    expect((await background).page).toBeNull();
    expect(hot.page?.body.toString()).toContain('new data');
    expect(store.isFresh(store.get('/blog/1')!)).toBe(true);
    expect(calls.map((c) => c.priority)).toEqual(['background', 'now']);
    store.close();
  });

  it('renders a key once for everyone asking at the same time', async () => {
    const store = new PageStore({ dir: tempDir(), buildId: 'b1' });
    const { pool, calls } = scriptedPool([async (key) => answer(key, 'one')]);
    const renderer = new PageRenderer(store, pool);
    const [a, b] = await Promise.all([renderer.render('/blog/1'), renderer.render('/blog/1')]);
    expect(a).toBe(b);
    expect(calls).toHaveLength(1);
    store.close();
  });
});
