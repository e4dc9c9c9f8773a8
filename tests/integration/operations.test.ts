import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, untilPrerendered, type TestServer } from '../support/server.ts';
import { findFreePort } from '../support/ports.ts';
import { bearer, loginAsAdmin } from '../support/auth.ts';
import { blogBodyFrom, uniqueName, type Json } from '../support/builders.ts';
import { call, sendJson } from './http-support.ts';
import { TEST_PURGE_SECRET } from '../support/varnish.ts';

/**
 * What an operator runs the site with: GET /healthz (the database and the page store), metrics on
 * a listener of their own, and purges of a shared cache that never fail a save when the cache is
 * down, but show in the save's answer and in the admin's refresh status.
 */

let server: TestServer;
let auth: Record<string, string>;
let metricsOrigin: string;
/** A port where nothing listens: a Varnish that is down. */
let deadCache: string;

beforeAll(async () => {
  // From this test worker's own block (ports.ts): no other worker's server is handed it meanwhile.
  deadCache = `http://127.0.0.1:${await findFreePort()}`;
  server = await startServer({
    env: {
      PURGE_VARNISH: deadCache,
      PURGE_SECRET: TEST_PURGE_SECRET,
      // A refused connection fails at once; the save waits for that answer however slow the machine.
      PURGE_WAIT_MS: '10000',
      METRICS_ADDRESS: '127.0.0.1:0',
      TOP_VIEWED_REFRESH_SECONDS: '3600',
    },
  });
  await untilPrerendered(server);
  metricsOrigin = /Metrics on (http:\/\/127\.0\.0\.1:\d+)\/metrics/.exec(server.output())![1]!;
  auth = bearer(await loginAsAdmin(server));
});

afterAll(async () => {
  await server?.stop();
});

const metrics = async () => (await fetch(`${metricsOrigin}/metrics`)).text();

describe('a shared cache that does not answer its purge', () => {
  it('never fails the save; the answer and the refresh status say so', async () => {
    const blog = ((await call(server, '/api/blogs?limit=1')).body as Json[])[0]!;
    const title = uniqueName('Saved while the cache is down');
    const saved = await sendJson(server, 'PUT', `/api/blogs/${String(blog.id)}`, blogBodyFrom(blog, { title }), auth);
    expect(saved.status).toBe(200);
    const cdn = ((saved.body as Json).refresh as Json).cdn as { purged: number; failed: Array<{ cache: string; error: string }> };
    expect(cdn.purged).toBe(0);
    expect(cdn.failed).toEqual([{ cache: deadCache, error: expect.stringMatching(/ECONNREFUSED/) }]);
    // The page itself is fresh: the built-in store does not depend on the cache in front.
    expect(await (await fetch(server.url(`/blog/${String(blog.id)}`))).text()).toContain(title);

    const status = (await call(server, '/api/admin/page-refresh', { headers: auth })).body as { cdn: Json };
    expect(status.cdn).toMatchObject({ caches: 1, sent: 0, lastFailure: { cache: deadCache } });
    expect(status.cdn.failed).toBeGreaterThanOrEqual(2);
    expect(Number(status.cdn.pending) + Number(status.cdn.givenUp)).toBeGreaterThanOrEqual(1);
    expect(server.output()).toMatch(/\[cdn\] purge on http:\/\/127\.0\.0\.1:\d+ failed \(.*ECONNREFUSED.*\); retrying in \d+ ms/);
  });
});

describe('metrics', () => {
  it('are served on METRICS_ADDRESS in the Prometheus text format, and never on the site', async () => {
    await fetch(server.url('/about'));
    await fetch(server.url('/blogs?search=notes'));
    const response = await fetch(`${metricsOrigin}/metrics`);
    expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const text = await response.text();
    expect(text).toMatch(/^site_pages_served_total\{state="hit"\} [1-9]\d*$/m);
    expect(text).toMatch(/^site_cdn_purges_total\{kind="purge",result="failed"\} [1-9]\d*$/m);
    expect(text).toMatch(/^site_page_render_seconds_count [1-9]\d*$/m);
    expect(text).toMatch(/^site_search_seconds_count [1-9]\d*$/m);
    expect(text).toMatch(/^site_refresh_queue_depth \d+$/m);
    for (const path of ['/metrics', '/api/metrics']) {
      const site = await fetch(server.url(path));
      expect(await site.text(), path).not.toContain('site_pages_served_total');
    }
  });

  it('show no search thread for search pages (a render worker searches them), and one once the API searches', async () => {
    const threads = async () => Number(/^site_search_threads (\d+)$/m.exec(await metrics())![1]);
    expect(await threads()).toBe(0);
    for (const words of ['notes', 'exam method', 'biologgy']) {
      const page = await fetch(server.url(`/blogs?search=${encodeURIComponent(words)}`));
      expect(page.status).toBe(200);
      expect(await page.text()).toContain(`Search Results for: &quot;${words}&quot;`);
    }
    expect(await threads()).toBe(0);
    const api = await fetch(server.url('/api/blogs?search=notes'));
    expect(api.status).toBe(200);
    expect(await threads()).toBeGreaterThanOrEqual(1);
  });

  it('count pages by the state they were served in', async () => {
    const before = Number(/^site_pages_served_total\{state="hit"\} (\d+)$/m.exec(await metrics())?.[1] ?? 0);
    for (let i = 0; i < 3; i++) expect((await fetch(server.url('/contact'))).headers.get('x-page-store')).toBe('HIT');
    const after = Number(/^site_pages_served_total\{state="hit"\} (\d+)$/m.exec(await metrics())![1]);
    expect(after - before).toBeGreaterThanOrEqual(3);
  });
});

describe('GET /healthz', () => {
  it('is 200 when the database and the page store answer, and 503 naming the store when its file is gone', async () => {
    const ok = await fetch(server.url('/healthz'));
    expect(ok.status).toBe(200);
    expect(ok.headers.get('cache-control')).toBe('no-store');
    expect(await ok.json()).toEqual({ status: 'ok', database: 'ok', store: 'ok' });

    const file = path.join(server.dir, 'pages', 'pages.sqlite');
    fs.renameSync(file, `${file}.away`);
    try {
      const failing = await fetch(server.url('/healthz'));
      expect(failing.status).toBe(503);
      const body = (await failing.json()) as Json;
      expect(body.status).toBe('failing');
      expect(body.database).toBe('ok');
      expect(body.store).not.toBe('ok');
    } finally {
      fs.renameSync(`${file}.away`, file);
    }
    expect((await fetch(server.url('/healthz'))).status).toBe(200);
  });
});
