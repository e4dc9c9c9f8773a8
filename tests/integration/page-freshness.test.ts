import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, untilPrerendered, type TestServer } from '../support/server.ts';
import { until } from '../support/wait.ts';
import { bearer, loginAsAdmin, loginAsNewUser } from '../support/auth.ts';
import { blogBodyFrom, uniqueName } from '../support/builders.ts';
import { call, refreshStatus, renameFirstCategory, sendJson, untilRefreshDrained, type Json } from './http-support.ts';

/**
 * Stale-while-revalidate (docs/product.md#speed-and-freshness): when a save answers its hot pages are fresh; every
 * other page it touched is answered at once from its previous version (STALE) while a background
 * queue re-renders it, most requested first; the admin can watch the queue drain. And fine
 * dependencies: a title edit stales only the pages that show the article.
 */

interface Seen {
  status: number;
  state: string | null;
  renderedAt: string | null;
  html: string;
}

let server: TestServer;
let auth: Record<string, string>;

async function get(p: string): Promise<Seen> {
  const response = await fetch(server.url(p));
  return {
    status: response.status,
    state: response.headers.get('x-page-store'),
    renderedAt: response.headers.get('x-rendered-at'),
    html: await response.text(),
  };
}

interface RefreshStatus {
  queued: number;
  refreshedSinceLastChange: number;
  seconds: number;
}

const untilDrained = () => untilRefreshDrained<RefreshStatus>(server, auth);

/** The stored pages carrying a tag, read from the store's own file. */
function storedKeysWith(tags: string[]): string[] {
  const db = new SQLite(path.join(server.dir, 'pages', 'pages.sqlite'), { readonly: true });
  try {
    const marks = tags.map(() => '?').join(', ');
    return (db.prepare(`select distinct key from page_tags where tag in (${marks})`).all(...tags) as Array<{ key: string }>).map(
      (row) => row.key,
    );
  } finally {
    db.close();
  }
}

beforeAll(async () => {
  // One process: these tests read which pages one process holds stale. What readers see with
  // two processes is tested in take-down.test.ts and several-processes.test.ts.
  server = await startServer({ env: { TOP_VIEWED_REFRESH_SECONDS: '3600', WEB_PROCESSES: '1' } });
  await untilPrerendered(server);
  auth = bearer(await loginAsAdmin(server));
});

afterAll(async () => {
  await server?.stop();
});

describe('stale-while-revalidate', () => {
  it('after a category rename, a deep page answers STALE at once, then the background queue refreshes it', async () => {
    const categories = (await call(server, '/api/categories')).body as Array<{ id: number }>;
    // Never asked for before the change: the queue reaches it after the pages readers asked for.
    const deep = '/?page=2';
    const popular = `/blogs?category=${categories[0]!.id}&page=2`;
    for (let i = 0; i < 5; i++) expect((await get(popular)).state).toBe('HIT');

    const renamed = uniqueName('Renamed subject');
    const { category, answer } = await renameFirstCategory(server, renamed, auth);
    expect(answer.status).toBe(200);
    const queued = ((answer.body as Json).refresh as { queued: number }).queued;
    expect(queued).toBeGreaterThan(10);

    // The hot pages were re-rendered before the answer.
    const home = await get('/');
    expect(home.state).toBe('HIT');
    expect(home.html).toContain(renamed);
    // A deep page: its previous version, at once, marked stale.
    const stale = await get(deep);
    expect(stale.status).toBe(200);
    expect(stale.state).toBe('STALE');
    expect(stale.html).toContain(category.name);
    expect(stale.html).not.toContain(renamed);

    // No reader needs to ask again: the queue drains by itself, and the admin sees it.
    const drained = await untilDrained();
    expect(drained.refreshedSinceLastChange).toBeGreaterThanOrEqual(queued - 1);
    const fresh = await get(deep);
    expect(fresh.state).toBe('HIT');
    expect(fresh.html).toContain(renamed);
    // Most requested first.
    expect(Number((await get(popular)).renderedAt)).toBeLessThan(Number(fresh.renderedAt));
  });

  it('the refresh status is for admins only', async () => {
    expect((await call(server, '/api/admin/page-refresh')).status).toBe(401);
    const reader = bearer(await loginAsNewUser(server));
    expect((await call(server, '/api/admin/page-refresh', { headers: reader })).status).toBe(403);
    const status = await refreshStatus<RefreshStatus>(server, auth);
    expect(Object.keys(status).sort()).toEqual([
      'patchedByWorkers',
      'queued',
      'refreshedSinceLastChange',
      'renamedByWorkers',
      'renderedByWorkers',
      'seconds',
    ]);
  });
});

describe('fine dependencies', () => {
  it('a title edit of an old article stales only the pages that show it', async () => {
    await untilDrained();
    const all = (await call(server, '/api/blogs?limit=200')).body as Array<{ id: number; category_id: number | null } & Json>;
    const top = new Set(((await call(server, '/api/blogs/top-viewed')).body as Array<{ id: number }>).map((b) => b.id));
    // Past the ticker (10 newest) and every first page, not in the top-viewed block.
    const index = all.findIndex((b, i) => i >= 12 && i < all.length - 3 && !top.has(b.id) && b.category_id !== null);
    expect(index).toBeGreaterThan(0);
    const old = all[index]!;
    const showing = `/blogs?page=${index + 1}`;
    const unrelated = `/blogs?page=${index + 3}`;
    const untouched = ['/', '/blogs', unrelated];
    const before: Record<string, string | null> = {};
    for (const p of [...untouched, showing]) before[p] = (await get(p)).renderedAt;

    const staledBefore = storedKeysWith([`blog:${old.id}`, 'list', `category:${old.category_id}`]).length;
    const title = uniqueName('Retitled old article');
    const answer = await sendJson(server, 'PUT', `/api/blogs/${old.id}`, blogBodyFrom(old, { title }), auth);
    expect(answer.status).toBe(200);
    // The list page showing it (and whatever else shows it) went to the background queue.
    expect(((answer.body as Json).refresh as { queued: number }).queued).toBeGreaterThanOrEqual(1);
    const staledAfter = storedKeysWith([`blog:${old.id}`]).length;
    console.log(
      `Pages staled by one title edit (${all.length} articles): ${staledBefore} with the list tags, ${staledAfter} now`,
    );
    expect(staledAfter).toBeLessThan(staledBefore);

    for (const p of untouched) {
      const seen = await get(p);
      expect(seen.state, `${p} should still be the stored page`).toBe('HIT');
      expect(seen.renderedAt, `${p} should not have been re-rendered`).toBe(before[p]);
    }
    const first = await get(showing);
    expect(['STALE', 'HIT']).toContain(first.state);
    if (first.state === 'HIT') expect(first.html).toContain(title);
    const refreshed = await until(
      () => get(showing),
      (s) => s.state === 'HIT',
      `${showing} to be refreshed`,
    );
    expect(refreshed.html).toContain(title);
    expect(refreshed.renderedAt).not.toBe(before[showing]);
  });
});
