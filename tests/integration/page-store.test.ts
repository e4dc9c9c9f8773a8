import zlib from 'node:zlib';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, untilPrerendered, type TestServer } from '../support/server.ts';
import { bearer, loginAsAdmin } from '../support/auth.ts';
import { makePdf, makePng } from '../support/files.ts';
import { blogBodyFrom, buildBlogBody, buildCategory, buildCommentBody, uniqueName } from '../support/builders.ts';
import { call, sendForm, sendJson, untilRefreshDrainedEverywhere, uploadPdf, type Json } from './http-support.ts';
import { until } from '../support/wait.ts';

/**
 * The page store's promise (issue "Pre-rendered pages"): when a change's call answers, every page
 * showing the changed data serves the new version, the hot ones already stored; pages that do not
 * show it are not re-rendered; stored pages survive a restart.
 */

interface Seen {
  status: number;
  state: string | null;
  renderedAt: string | null;
  html: string;
}

let server: TestServer;
let auth: Record<string, string>;
let categories: Array<{ id: number; name: string; sequence: number }>;

async function get(path: string): Promise<Seen> {
  const response = await fetch(server.url(path));
  return {
    status: response.status,
    state: response.headers.get('x-page-store'),
    renderedAt: response.headers.get('x-rendered-at'),
    html: await response.text(),
  };
}

/** When each page was rendered, as the store says. */
/**
 * When each page's stored version was rendered, once it is fresh: a page an earlier test's change
 * left stale is still the background refresh's to re-render, which would look like this test's.
 */
async function renderTimes(paths: string[]): Promise<Record<string, string | null>> {
  const times: Record<string, string | null> = {};
  for (const path of paths) {
    const fresh = await until(
      () => get(path),
      (seen) => seen.state === 'HIT',
      `${path} fresh in the store`,
    );
    times[path] = fresh.renderedAt;
  }
  return times;
}

async function expectUntouched(before: Record<string, string | null>): Promise<void> {
  for (const [path, renderedAt] of Object.entries(before)) {
    const now = await get(path);
    expect(now.state, `${path} should still be the stored page`).toBe('HIT');
    expect(now.renderedAt, `${path} should not have been re-rendered`).toBe(renderedAt);
  }
}

/** A page that is not hot is refreshed in the background: wait until the queue reached it. */
function untilRefreshed(path: string): Promise<Seen> {
  return until(
    () => get(path),
    (seen) => seen.state !== 'STALE',
    `${path} to be refreshed`,
  );
}

/**
 * The stored row of a page, read from the store's file (not through a request, which would make
 * encodings), with the text of its brotli copy.
 */
function storedRow(key: string): { renderedAt: number; gzip: boolean; br: boolean; text: string } | undefined {
  const db = new SQLite(path.join(server.dir, 'pages', 'pages.sqlite'), { readonly: true });
  try {
    db.pragma('busy_timeout = 5000');
    const row = db.prepare('select rendered_at as renderedAt, gzip is not null as gzip, br from pages where key = ?').get(key) as
      | { renderedAt: number; gzip: number; br: Buffer | null }
      | undefined;
    return (
      row && {
        renderedAt: row.renderedAt,
        gzip: row.gzip === 1,
        br: row.br !== null,
        text: row.br ? zlib.brotliDecompressSync(row.br).toString() : '',
      }
    );
  } finally {
    db.close();
  }
}

/** The articles an article page's Older and Newer links name. */
const linkedFrom = (html: string): number[] => [
  ...new Set(
    [...html.matchAll(/<a class="pager-(?:older|newer)" rel="(?:prev|next)" href="\/blog\/(\d+)">/g)].map((m) => Number(m[1])),
  ),
];

/** The hot pages are re-rendered before the call answers: the first reader gets a stored page. */
async function expectLiveAndStored(path: string, text: string): Promise<void> {
  const seen = await get(path);
  expect(seen.status).toBe(200);
  expect(seen.state, `${path} should be answered from the store`).toBe('HIT');
  expect(seen.html).toContain(text);
}

beforeAll(async () => {
  server = await startServer({ env: { TOP_VIEWED_REFRESH_SECONDS: '3600' } });
  // The first start fills the store in the background; render times are compared after that.
  await untilPrerendered(server);
  auth = bearer(await loginAsAdmin(server));
  categories = (await call(server, '/api/categories')).body as typeof categories;
}); // the start-up pre-render may take minutes on a loaded machine

afterAll(async () => {
  await server?.stop();
});

describe('the page store', () => {
  it('answers public pages from the store, compressed, with ETag and 304', async () => {
    await get('/');
    const response = await fetch(server.url('/'), { headers: { 'accept-encoding': 'br' } });
    expect(response.headers.get('x-page-store')).toBe('HIT');
    expect(response.headers.get('content-encoding')).toBe('br');
    expect(response.headers.get('cache-control')).toBe('public, max-age=0, must-revalidate');
    expect(response.headers.get('set-cookie')).toBeNull();
    const etag = response.headers.get('etag')!;
    expect(etag).toMatch(/^W\/".+"$/);
    const again = await fetch(server.url('/'), { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
  });

  it('an article edit is live on its hot pages when the call answers, and touches nothing else', async () => {
    const blogs = (await call(server, '/api/blogs?limit=6')).body as Array<{ id: number; category_id: number | null } & Json>;
    const newest = blogs.find((b) => b.category_id !== null)!;
    // Its neighbours' pages name its title in their Older and Newer links: a title edit reaches them
    // (in the background, below); any other article's page is left alone.
    const neighbours = linkedFrom((await get(`/blog/${newest.id}`)).html);
    expect(neighbours.length).toBeGreaterThan(0);
    const other = blogs.find((b) => b.id !== newest.id && !neighbours.includes(b.id))!;
    const otherCategory = categories.find((c) => c.id !== newest.category_id)!;
    const untouched = [`/blog/${other.id}`, `/blogs?category=${otherCategory.id}`, '/about'];
    const warmed = ['/', '/blogs', `/blogs?category=${newest.category_id}`, `/blog/${newest.id}`, '/?page=2'];
    await renderTimes([...warmed, ...neighbours.map((id) => `/blog/${id}`)]);
    const before = await renderTimes(untouched);

    const title = uniqueName('Edited in place');
    const answer = await sendJson(server, 'PUT', `/api/blogs/${newest.id}`, blogBodyFrom(newest, { title }), auth);
    expect(answer.status).toBe(200);
    expect(typeof (answer.body as Json).live_ms).toBe('number');

    for (const path of ['/', '/blogs', `/blogs?category=${newest.category_id}`, `/blog/${newest.id}`])
      await expectLiveAndStored(path, title);
    await expectUntouched(before);
    // A list page that was not hot (page 2 shows the article in its ticker) is refreshed in the
    // background, not before the call answered.
    const later = await untilRefreshed('/?page=2');
    expect(later.state).toBe('HIT');
    expect(later.html).toContain(title);
    // So are the pages of the articles whose Older or Newer link names it.
    for (const id of neighbours) {
      const neighbour = await until(
        () => get(`/blog/${id}`),
        (seen) => seen.state === 'HIT' && seen.html.includes(title),
        `/blog/${id}'s link to the renamed article`,
      );
      expect(neighbour.html).toContain(title);
    }
  });

  it("an edit of an article's text re-renders its own page, not its neighbours' (their links show only its title)", async () => {
    const [newest] = (await call(server, '/api/blogs?limit=1')).body as Array<{ id: number } & Json>;
    const neighbours = linkedFrom((await get(`/blog/${newest!.id}`)).html);
    expect(neighbours.length).toBeGreaterThan(0);
    // The title edits before staled them: measure their refreshed pages.
    for (const id of neighbours) await untilRefreshed(`/blog/${id}`);
    // A read of a page while it was stale queued it in the process that answered too, which may
    // still be rendering it after the other process's copy came back fresh.
    await untilRefreshDrainedEverywhere(server, auth);
    const before = await renderTimes(neighbours.map((id) => `/blog/${id}`));
    const text = uniqueName('Only the text changed');
    const content = `<p>${text}</p>`;
    expect((await sendJson(server, 'PUT', `/api/blogs/${newest!.id}`, blogBodyFrom(newest!, { content }), auth)).status).toBe(
      200,
    );
    await expectLiveAndStored(`/blog/${newest!.id}`, text);
    await expectUntouched(before);
  });

  it('a page refreshed in the background comes back with the encodings readers took of it, made by its worker', async () => {
    const [newest] = (await call(server, '/api/blogs?limit=1')).body as Array<{ id: number } & Json>;
    // The edit before staled every home page. Its refresh finishes everywhere first: a reader's
    // request for a stale page queues it in the process that answered too, so a page read while
    // stale may be rendered by both processes, and the later of those two would pass for this
    // edit's refresh below.
    await untilRefreshDrainedEverywhere(server, auth);
    expect((await untilRefreshed('/?page=3')).state).toBe('HIT');
    // Home page 3 shows the newest article in its ticker but is not hot. A reader takes it in gzip
    // (a worker makes it, kept with the page); its brotli copy came with its refresh.
    await fetch(server.url('/?page=3'), { headers: { 'accept-encoding': 'gzip' } }).then((r) => r.arrayBuffer());
    // Kept in memory at once, written to the file at the serving thread's next turn.
    const before = (await until(
      () => storedRow('/?page=3'),
      (row) => Boolean(row?.br && row.gzip),
      'the gzip and brotli copies of /?page=3 in the file',
    ))!;

    const title = uniqueName('Refreshed with its encodings');
    expect((await sendJson(server, 'PUT', `/api/blogs/${newest!.id}`, blogBodyFrom(newest!, { title }), auth)).status).toBe(200);
    // This edit's refresh: the first version stored that shows the new title.
    const after = await until(
      () => storedRow('/?page=3'),
      (row) => Boolean(row?.text.includes(title)),
      'the refreshed /?page=3 in the file',
    );
    expect(after!.renderedAt).not.toBe(before.renderedAt);
    // Nobody asked for it since: the encodings readers took of the version it replaced came with the render.
    expect(after).toMatchObject({ br: true, gzip: true });
    const answer = await fetch(server.url('/?page=3'), { headers: { 'accept-encoding': 'br' } });
    expect(answer.headers.get('x-page-store')).toBe('HIT');
    expect(await answer.text()).toContain(title);
  });

  it('an edit of an old article re-renders only its own page at once; lists follow on demand', async () => {
    const all = (await call(server, '/api/blogs?limit=200')).body as Array<{ id: number; clicks: number } & Json>;
    const top = new Set(((await call(server, '/api/blogs/top-viewed')).body as Array<{ id: number }>).map((b) => b.id));
    const old = all.slice(8).find((b) => !top.has(b.id))!;
    await renderTimes(['/', '/blogs', `/blog/${old.id}`]);
    const title = uniqueName('Quietly edited');
    expect((await sendJson(server, 'PUT', `/api/blogs/${old.id}`, blogBodyFrom(old, { title }), auth)).status).toBe(200);
    await expectLiveAndStored(`/blog/${old.id}`, title);
    // /blogs does not show this article: a title edit leaves it alone. Home page 1 is fresh either
    // way (re-rendered if the article is in its ticker, untouched otherwise).
    expect((await get('/')).state).toBe('HIT');
    expect((await get('/blogs')).state).toBe('HIT');
  });

  it('a new article shows on the home page, its list pages and /download at once; its siblings stay', async () => {
    // The category's newest article gets the new one as its Newer link, in the background (below);
    // the one after it is a sibling the new article changes nothing on.
    const [next, sibling] = (await call(server, `/api/blogs?category=${categories[1]!.id}&limit=2`)).body as Array<{
      id: number;
    }>;
    const before = await renderTimes([`/blog/${sibling!.id}`, `/blogs?category=${categories[2]!.id}`]);
    const title = uniqueName('Brand new article');
    const pdf = await uploadPdf(server, { data: makePdf(), name: 'notes.pdf', type: 'application/pdf' }, auth);
    expect(pdf.status).toBe(201);
    const created = await sendJson(
      server,
      'POST',
      '/api/blogs',
      buildBlogBody(categories[1]!.id, { title, pdf_link: (pdf.body as Json).link }),
      auth,
    );
    expect(created.status).toBe(201);
    const id = (created.body as Json).id as number;
    for (const path of ['/', '/blogs', `/blogs?category=${categories[1]!.id}`, '/download'])
      await expectLiveAndStored(path, title);
    expect((await get(`/blog/${id}`)).html).toContain(title);
    await expectUntouched(before);
    await until(
      () => get(`/blog/${next!.id}`),
      (seen) => seen.state === 'HIT' && linkedFrom(seen.html).includes(id),
      `/blog/${next!.id}'s Newer link to the new article`,
    );

    const removed = await call(server, `/api/blogs/${id}`, { method: 'DELETE', headers: auth });
    expect(removed.status).toBe(200);
    expect((await get(`/blog/${id}`)).status).toBe(404);
    for (const path of ['/', '/blogs', '/download']) {
      const seen = await get(path);
      expect(seen.state).toBe('HIT');
      expect(seen.html).not.toContain(title);
    }
  });

  it('a comment posted or deleted shows on its article only', async () => {
    const [blog, other] = (await call(server, '/api/blogs?limit=2')).body as Array<{ id: number }>;
    await get(`/blog/${blog!.id}`);
    const before = await renderTimes(['/', `/blog/${other!.id}`]);
    const text = uniqueName('A reader comment');
    const posted = await sendJson(
      server,
      'POST',
      `/api/blogs/${blog!.id}/comment`,
      buildCommentBody({ comment: text, contact: 'none' }),
    );
    expect(posted.status).toBe(201);
    await expectLiveAndStored(`/blog/${blog!.id}`, text);
    await expectUntouched(before);

    const commentId = (posted.body as Json).id as number;
    const deleted = await call(server, `/api/blogs/comment/${commentId}`, { method: 'DELETE', headers: auth });
    expect(deleted.status).toBe(200);
    const seen = await get(`/blog/${blog!.id}`);
    expect(seen.state).toBe('HIT');
    expect(seen.html).not.toContain(text);
  });

  it('category add, rename, re-sequence and delete reach the nav of every page', async () => {
    const name = uniqueName('Topic');
    const added = await sendJson(server, 'POST', '/api/categories', buildCategory({ name }), auth);
    expect(added.status).toBe(201);
    const category = added.body as { id: number };
    // Readers are offered a category once it holds an article: its first one brings it to the nav.
    expect((await sendJson(server, 'POST', '/api/blogs', buildBlogBody(category.id), auth)).status).toBe(201);
    await expectLiveAndStored('/', name);
    // Every page shows the nav: the other pages follow on their next request.
    const about = await get('/about');
    expect(about.html).toContain(name);

    const renamed = uniqueName('Renamed topic');
    expect((await sendJson(server, 'PUT', `/api/categories/${category.id}`, buildCategory({ name: renamed }), auth)).status).toBe(
      200,
    );
    await expectLiveAndStored('/', renamed);
    expect((await get('/download')).html).toContain(renamed);

    const [first, second] = categories;
    expect(
      (await sendJson(server, 'PUT', `/api/categories/${second!.id}`, { name: second!.name, sequence: -5 }, auth)).status,
    ).toBe(200);
    const home = (await get('/')).html;
    expect(home.indexOf(`category=${second!.id}"`)).toBeLessThan(home.indexOf(`category=${first!.id}"`));

    const inCategory = (await call(server, `/api/blogs?category=${first!.id}&limit=1`)).body as Array<{ id: number }>;
    expect((await call(server, `/api/categories/${first!.id}`, { method: 'DELETE', headers: auth })).status).toBe(200);
    // Article pages are not hot for a nav change: the background refresh reaches them.
    const article = await untilRefreshed(`/blog/${inCategory[0]!.id}`);
    expect(article.html).toContain('General');
    expect((await get('/')).html).not.toContain(`category=${first!.id}"`);
  });

  it('carousel add and delete are live on the home page at once', async () => {
    const title = uniqueName('Slide');
    const added = await sendForm(
      server,
      '/api/carousel',
      { title, image: { data: await makePng(320, 180), name: 'slide.png', type: 'image/png' } },
      auth,
    );
    expect(added.status).toBe(201);
    await expectLiveAndStored('/', title);
    const slide = (added.body as { slide: { id: number } }).slide;
    expect((await call(server, `/api/carousel/${slide.id}`, { method: 'DELETE', headers: auth })).status).toBe(200);
    const home = await get('/');
    expect(home.state).toBe('HIT');
    expect(home.html).not.toContain(title);
  });

  it('a view does not re-render any page', async () => {
    const [blog] = (await call(server, '/api/blogs?limit=1')).body as Array<{ id: number }>;
    // The category deleted above left article pages to the background refresh: start from stored pages.
    for (const path of ['/', `/blog/${blog!.id}`]) await untilRefreshed(path);
    const before = await renderTimes(['/', `/blog/${blog!.id}`]);
    expect((await fetch(server.url(`/api/blogs/${blog!.id}/click`), { method: 'PUT' })).status).toBe(204);
    await expectUntouched(before);
  });

  it('stored pages survive a restart', async () => {
    const [blog] = (await call(server, '/api/blogs?limit=1')).body as Array<{ id: number }>;
    const before = await untilRefreshed(`/blog/${blog!.id}`);
    const port = new URL(server.origin).port;
    await server.stop();
    server = await startServer({ dir: server.dir, env: { PORT: port, TOP_VIEWED_REFRESH_SECONDS: '3600' } });
    const after = await get(`/blog/${blog!.id}`);
    expect(after.state).toBe('HIT');
    expect(after.renderedAt).toBe(before.renderedAt);
    expect(after.html).toBe(before.html);
  });

  // Two serving processes share the pre-render out from the cluster's primary; one runs it itself.
  it.each(['2', '1'])(
    'a pre-render stopped before its end is carried on at the next start (WEB_PROCESSES=%s)',
    async (processes) => {
      const [blog] = (await call(server, '/api/blogs?limit=1')).body as Array<{ id: number }>;
      const key = `/blog/${blog!.id}`;
      await untilRefreshed(key);
      const port = new URL(server.origin).port;
      await server.stop();
      const file = path.join(server.dir, 'pages', 'pages.sqlite');
      const marked = (db: SQLite.Database) =>
        (db.prepare("select value from meta where key = 'prerendered_build'").get() as { value: string } | undefined)?.value;
      // What a server stopped midway through its pre-render leaves: pages stored, not this one, and
      // no mark of the end (the server that pre-rendered this store left one).
      const db = new SQLite(file);
      expect(marked(db)).toBeDefined();
      db.prepare("delete from meta where key = 'prerendered_build'").run();
      for (const table of ['pages', 'page_tags', 'page_access']) db.prepare(`delete from ${table} where key = ?`).run(key);
      expect((db.prepare('select count(*) as n from pages').get() as { n: number }).n).toBeGreaterThan(10);
      db.close();

      server = await startServer({
        dir: server.dir,
        env: { PORT: port, TOP_VIEWED_REFRESH_SECONDS: '3600', WEB_PROCESSES: processes },
      });
      await untilPrerendered(server);
      const reopened = new SQLite(file, { readonly: true });
      try {
        expect((reopened.prepare('select count(*) as n from pages where key = ?').get(key) as { n: number }).n).toBe(1);
        expect(marked(reopened)).toBeDefined();
      } finally {
        reopened.close();
      }
      expect((await get(key)).state).toBe('HIT');
    },
  );
});
