import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, untilPrerendered, type TestServer } from '../support/server.ts';
import { until } from '../support/wait.ts';
import { bearer, loginAsAdmin } from '../support/auth.ts';
import { blogBodyFrom, uniqueName } from '../support/builders.ts';
import { call, refreshStatus, sendJson, untilRefreshDrained, type Json } from './http-support.ts';

/**
 * The top-viewed list moved (readers' views, seen by the lead's check), or an article it or the
 * ticker shows was retitled: every home page shows both, and a home page only that left stale
 * gets the blocks of a home page rendered since patched into its stored text
 * (page-store/block-patch.ts) instead of a render. What readers get must be the blocks a render
 * gives, the rest of the page as it was, and a patched page must carry the tag of an article that
 * joined the list: an edit of that article refreshes it.
 */

let server: TestServer;

beforeAll(async () => {
  // The check each second: the list's move reaches the pages within the test.
  server = await startServer({ env: { TOP_VIEWED_REFRESH_SECONDS: '1' } });
  await untilPrerendered(server);
});

afterAll(async () => {
  await server?.stop();
});

const OPEN = '<!--block:top-viewed:';
const CLOSE = '<!--/block:top-viewed-->';

/** The page's top-viewed block, marks included, and the page without it. */
function split(html: string): { block: string; rest: string } {
  const start = html.indexOf(OPEN);
  const end = html.indexOf(CLOSE);
  expect(start, 'the page marks its top-viewed list').toBeGreaterThan(0);
  expect(end).toBeGreaterThan(start);
  return { block: html.slice(start, end + CLOSE.length), rest: html.slice(0, start) + html.slice(end + CLOSE.length) };
}

/** A home page as a reader gets it once no process answers it stale. */
async function freshPage(path: string, shows: (html: string) => boolean, what: string): Promise<string> {
  const read = async () => {
    const response = await fetch(server.url(path));
    expect(response.status).toBe(200);
    return { state: response.headers.get('x-page-store'), html: await response.text() };
  };
  return (await until(read, (page) => page.state !== 'STALE' && shows(page.html), what)).html;
}

describe('the top-viewed list on the home pages', () => {
  it('is patched into the stored pages, as a render shows it, and an article that joined it refreshes them when edited', async () => {
    const auth = bearer(await loginAsAdmin(server));
    const patchedBefore = (await refreshStatus(server, auth)).patchedByWorkers ?? 0;
    // The oldest article: on the last home page only, and out of the list.
    const listed = ((await call(server, '/api/blogs/top-viewed')).body as Json[]).map((blog) => Number(blog.id));
    const db = new SQLite(server.databasePath);
    let oldest: number;
    try {
      db.pragma('busy_timeout = 5000');
      const ids = db.prepare('select id from blogs order by created_at asc, id asc').all() as Array<{ id: number }>;
      const candidates = ids.map((row) => row.id).filter((id) => !listed.includes(id));
      oldest = -1;
      for (const id of candidates) {
        if ((await fetch(server.url(`/blog/${id}`))).status === 200) {
          oldest = id;
          break;
        }
      }
      expect(oldest).toBeGreaterThan(0);
      const link = `href="/blog/${oldest}"`;
      const before = split(await freshPage('/?page=2', () => true, 'home page 2'));
      const firstBefore = split(await freshPage('/', () => true, 'home page 1'));
      expect(before.block).not.toContain(link);
      expect((await fetch(server.url('/?page=4'))).status).toBe(200); // pages enough for a worker to patch some
      // Views as readers' browsers count them, many at once: it goes to the top of the list.
      db.prepare('update blogs set clicks = clicks + 1000000 where id = ?').run(oldest);

      const page1 = split(await freshPage('/', (html) => html.includes(link), 'home page 1 to list the article'));
      const page2 = split(await freshPage('/?page=2', (html) => html.includes(link), 'home page 2 to list the article'));
      // The list as home page 1's render shows it (rendered at once, as a change's hot page), and the rest of page 2 as it was.
      expect(page2.block).toBe(page1.block);
      expect(page2.rest).toBe(before.rest);
      // Nothing outside the block shows the list: a render changed none of the rest of page 1.
      expect(page1.rest).toBe(firstBefore.rest);
      const patched = (await refreshStatus(server, auth)).patchedByWorkers ?? 0;
      expect(patched, 'home pages patched, not rendered').toBeGreaterThan(patchedBefore);
    } finally {
      db.close();
    }

    // The article's new title reaches page 2, which did not show it before the list moved.
    const blog = (await call(server, `/api/blogs/${oldest}`)).body as Json;
    const title = uniqueName('Joined the list');
    const saved = await sendJson(server, 'PUT', `/api/blogs/${oldest}`, blogBodyFrom(blog, { title }), auth);
    expect(saved.status).toBe(200);
    await freshPage('/?page=2', (html) => html.includes(title), 'home page 2 to show the new title');
  });

  it('gets a new title of an article only its ticker shows patched into the stored pages, as a render shows it', async () => {
    const auth = bearer(await loginAsAdmin(server));
    // The newest article: a card of page 1 only, and in every home page's ticker.
    const [newest] = (await call(server, '/api/blogs?limit=1')).body as Json[];
    const id = Number(newest!.id);
    const before = await freshPage('/?page=2', () => true, 'home page 2');
    expect(before).toContain(`href="/blog/${id}"`);
    const patchedBefore = (await refreshStatus(server, auth)).patchedByWorkers ?? 0;
    const title = uniqueName('Retitled in the ticker');
    const saved = await sendJson(server, 'PUT', `/api/blogs/${id}`, blogBodyFrom(newest!, { title }), auth);
    expect(saved.status).toBe(200);

    const page1 = await freshPage('/', (html) => html.includes(title), 'home page 1 to show the new title');
    const page2 = await freshPage('/?page=2', (html) => html.includes(title), 'home page 2 to show the new title in its ticker');
    // Both blocks as home page 1's render shows them, and the rest of page 2 as it was.
    expect(blockOf(page2, 'ticker')).toBe(blockOf(page1, 'ticker'));
    expect(blockOf(page2, 'top-viewed')).toBe(blockOf(page1, 'top-viewed'));
    expect(withoutBlocks(page2)).toBe(withoutBlocks(before));
    await untilRefreshDrained(server, auth);
    const patched = (await refreshStatus(server, auth)).patchedByWorkers ?? 0;
    expect(patched, 'home pages patched, not rendered').toBeGreaterThan(patchedBefore);
  });
});

function blockOf(html: string, name: string): string {
  const start = html.indexOf(`<!--block:${name}:`);
  const close = `<!--/block:${name}-->`;
  const end = html.indexOf(close);
  expect(start, `the page marks its ${name} block`).toBeGreaterThan(0);
  expect(end).toBeGreaterThan(start);
  return html.slice(start, end + close.length);
}

/** The page without its ticker and top-viewed list. */
const withoutBlocks = (html: string) => html.replace(blockOf(html, 'ticker'), '').replace(blockOf(html, 'top-viewed'), '');
