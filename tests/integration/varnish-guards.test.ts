import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, untilPrerendered, type TestServer } from '../support/server.ts';
import { blackHole, startVarnish, TEST_PURGE_SECRET, varnishMissing, type TestVarnish } from '../support/varnish.ts';
import { backendHealth, varnishCounter } from '../support/varnish-admin.ts';
import { nginxMissing, startNginx, type TestNginx } from '../support/nginx.ts';
import { bearer, loginAsAdmin } from '../support/auth.ts';
import { blogBodyFrom, buildCommentBody, uniqueName, type Json } from '../support/builders.ts';
import { until } from '../support/wait.ts';
import { call, sendJson } from './http-support.ts';

/**
 * What the shipped Varnish setup must not let anyone do (real varnishd with deploy/varnish.vcl,
 * real nginx in front as the TLS terminator on the same host, the real built server behind):
 * purge the cache without the app's secret, fill it with random query strings, or hold a save
 * or a comment while Varnish does not answer its purge.
 */

const missing = varnishMissing() ?? nginxMissing();
if (missing) console.warn(`Skipping the Varnish guard tests: ${missing}.`);

interface PurgeCount {
  cdn: { caches: number; sent: number; failed: number; pending: number; givenUp: number; lastFailure: unknown };
}

interface Blog extends Json {
  id: number;
  title: string;
}

/** One request from a chosen local address, any method (PURGE included), headers as given. */
function rawRequest(
  origin: string,
  options: { method: string; path: string; headers?: Record<string, string>; localAddress?: string },
): Promise<{ status: number; body: string; cache: string | undefined }> {
  const url = new URL(origin);
  return new Promise((resolve, reject) => {
    const request = http.request({ host: url.hostname, port: url.port, ...options }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, body, cache: response.headers['x-cache'] as string | undefined }),
      );
    });
    request.on('error', reject);
    request.end();
  });
}

const get = (origin: string, p: string) => rawRequest(origin, { method: 'GET', path: p });

/** The PURGE a reader would try: every key the app uses for settings and pages, with or without a guess at the secret. */
const readerPurge = (origin: string, headers: Record<string, string>, localAddress?: string) =>
  rawRequest(origin, {
    method: 'PURGE',
    path: '/',
    headers: { 'xkey-purge': 'settings nav', ...headers },
    ...(localAddress ? { localAddress } : {}),
  });

/** The secret the shipped deploy/site-backends.vcl configures (it must be none). */
function shippedPurgeSecret(): string {
  const vcl = fs.readFileSync(path.resolve(import.meta.dirname, '../../deploy/site-backends.vcl'), 'utf8');
  const match = /sub purge_secret \{\s*set req\.http\.purge-secret-expected = "([^"]*)";\s*\}/.exec(vcl);
  if (!match) throw new Error('deploy/site-backends.vcl has no sub purge_secret setting purge-secret-expected');
  return match[1]!;
}

describe.skipIf(missing !== null)('the shipped Varnish setup, with nginx in front', () => {
  let server: TestServer;
  let varnish: TestVarnish | undefined;
  let nginx: TestNginx;
  let reserved: Awaited<ReturnType<typeof blackHole>>;
  let auth: Record<string, string>;
  let cookie: string;
  /** The public address, which the app purges: silent, then relayed to Varnish (`reserved`). */
  let varnishOrigin: string;

  beforeAll(async () => {
    // Varnish's address says nothing until Varnish takes it over: a cache that accepts and never answers.
    reserved = await blackHole();
    varnishOrigin = `http://127.0.0.1:${reserved.port}`;
    server = await startServer({
      env: {
        PUBLIC_ORIGIN: varnishOrigin,
        PURGE_VARNISH: varnishOrigin,
        PURGE_SECRET: TEST_PURGE_SECRET,
        CDN_TAG_HEADERS: 'xkey',
        TOP_VIEWED_REFRESH_SECONDS: '3600',
      },
    });
    await untilPrerendered(server);
    // Started now, on a port of its own: the address the app purges relays to it only once the
    // test says Varnish answers (its start, VCL compile included, can take a minute on a busy machine).
    varnish = await startVarnish({ appPorts: [Number(new URL(server.origin).port)] });
    const session = await loginAsAdmin(server);
    auth = bearer(session);
    cookie = session.cookie;
  });

  afterAll(async () => {
    await nginx?.stop();
    await reserved?.release();
    await varnish?.stop();
    await server?.stop();
  });

  const newest = async (): Promise<Blog> => ((await call(server, '/api/blogs?limit=1')).body as Blog[])[0]!;
  const dashboardText = async () => (await call(server, '/admin/dashboard', { headers: { Cookie: cookie } })).text;
  const purgeStatus = async () => ((await call(server, '/api/admin/page-refresh', { headers: auth })).body as PurgeCount).cdn;

  it('with Varnish not answering, a save and a comment answer with their purge pending, delivered once Varnish answers', async () => {
    const blog = await newest();
    const title = uniqueName('Saved while Varnish is silent');
    const saved = await sendJson(server, 'PUT', `/api/blogs/${blog.id}`, blogBodyFrom(blog, { title }), auth);
    expect(saved.status).toBe(200);
    // Not confirmed within PURGE_WAIT_MS (250 ms): the save answered while its purge's try,
    // which may take 2 s before it is abandoned, was still under way.
    expect(((saved.body as Json).refresh as Json).cdn).toEqual({
      purged: 0,
      failed: [{ cache: varnishOrigin, error: 'no answer within 250 ms, still trying' }],
    });
    const afterSave = await purgeStatus();
    expect(afterSave.pending).toBeGreaterThanOrEqual(1);
    const posted = await sendJson(
      server,
      'POST',
      `/api/blogs/${blog.id}/comment`,
      buildCommentBody({ comment: uniqueName('Comment') }),
    );
    expect(posted.status).toBe(201);
    // Pending purges only drop when delivered (none can be here) or given up after a minute of retries.
    const during = await purgeStatus();
    expect(during.pending).toBeGreaterThan(afterSave.pending);
    expect(during.sent).toBe(0);
    // The admin's dashboard says so, whoever caused the purge.
    expect(await dashboardText()).toMatch(/Cache in front.*cache purges are pending/s);

    // Varnish takes over the address the app purges: the pending purges go through on their retries.
    reserved.relayTo(varnish!.port);
    const after = await until(purgeStatus, (cdn) => cdn.pending === 0, 'the pending purges to be delivered');
    expect(after.sent).toBeGreaterThanOrEqual(2);
    expect(after.givenUp).toBe(0);
    expect(await dashboardText()).not.toContain('Cache in front');
    // The front passes the public name (PUBLIC_ORIGIN's host), as a real one would: a page has one
    // cached copy, whether read through nginx or straight from Varnish.
    nginx = await startNginx(varnish!.port, { host: new URL(varnishOrigin).host });
  });

  it("refuses a reader's PURGE sent straight to Varnish or through nginx, and purges nothing", async () => {
    const blog = await newest();
    const page = `/blog/${blog.id}`;
    await get(nginx.origin, page);
    expect((await get(nginx.origin, page)).cache).toBe('HIT');
    const tries = [
      // nginx on this host connects from 127.0.0.1, an address in the purgers acl.
      () => readerPurge(nginx.origin, {}),
      () => readerPurge(nginx.origin, { 'X-Purge-Secret': 'guess-guess-guess-guess-guess-guess' }),
      () => readerPurge(nginx.origin, { 'purge-secret-expected': 'x'.repeat(40), 'X-Purge-Secret': 'x'.repeat(40) }),
      () => readerPurge(varnish!.origin, {}),
      () => readerPurge(varnish!.origin, { 'X-Purge-Secret': '' }),
      // The right secret from an address outside the acl.
      () => readerPurge(varnish!.origin, { 'X-Purge-Secret': TEST_PURGE_SECRET }, '127.0.0.2'),
    ];
    for (const [i, purge] of tries.entries()) {
      const refused = await purge();
      expect(refused.status, `try ${i}`).toBe(403);
      expect(refused.body, `try ${i}`).not.toMatch(/Purged/);
    }
    expect((await get(nginx.origin, page)).cache).toBe('HIT');
    expect((await get(varnishOrigin, '/about')).status).toBe(200);
    expect((await get(varnishOrigin, '/about')).cache).toBe('HIT');
  });

  it("honours the app's purge, sent with the secret, when an admin saves", async () => {
    const blog = await newest();
    const page = `/blog/${blog.id}`;
    await get(nginx.origin, page);
    expect((await get(nginx.origin, page)).cache).toBe('HIT');
    const title = uniqueName('Purged with the secret');
    const saved = await sendJson(server, 'PUT', `/api/blogs/${blog.id}`, blogBodyFrom(blog, { title }), auth);
    expect(saved.status).toBe(200);
    // Confirmed, or pending on a slow machine: either way Varnish drops the page once it has it.
    await until(purgeStatus, (cdn) => cdn.pending === 0, 'the purge to be confirmed');
    expect((await purgeStatus()).givenUp).toBe(0);
    const seen = await get(nginx.origin, page);
    expect(seen.body).toContain(title);
  });

  it('keeps one copy of a page whatever random query parameters readers add, in Varnish and in the store', async () => {
    const blog = await newest();
    const pages = [`/blog/${blog.id}`, '/', '/blogs', '/about'];
    for (const page of pages) {
      await get(nginx.origin, page);
      expect((await get(nginx.origin, page)).cache, page).toBe('HIT');
    }
    const objects = await varnishCounter(varnish!, 'MAIN.n_object');
    for (let i = 0; i < 40; i++) {
      const random = Math.random().toString(36).slice(2);
      for (const variant of [
        `/blog/${blog.id}?r=${random}`,
        `/?utm_source=${random}&page=1`,
        `/blogs?${random}=1`,
        `/about?r=${random}&r2=${random}`,
      ]) {
        const seen = await get(nginx.origin, variant);
        expect(seen.status, variant).toBe(200);
        expect(seen.cache, variant).toBe('HIT');
      }
    }
    expect(await varnishCounter(varnish!, 'MAIN.n_object')).toBe(objects);
    // The app's own store answers the same stored page for any such address (no page stored per variant).
    const direct = await fetch(server.url(`/blog/${blog.id}?r=${Math.random()}`));
    expect(direct.headers.get('x-page-store')).toBe('HIT');
  });

  it('still sorts the parameters a list page reads, so their order makes no second copy', async () => {
    const category = ((await call(server, '/api/categories')).body as Array<{ id: number }>)[0]!;
    await get(varnishOrigin, `/blogs?category=${category.id}&page=1`);
    const objects = await varnishCounter(varnish!, 'MAIN.n_object');
    for (const variant of [`/blogs?page=1&category=${category.id}`, `/blogs?x=1&category=${category.id}`]) {
      expect((await get(varnishOrigin, variant)).cache, variant).toBe('HIT');
    }
    expect(await varnishCounter(varnish!, 'MAIN.n_object')).toBe(objects);
  });

  it('as shipped (no secret written in site-backends.vcl), refuses every purge', async () => {
    expect(shippedPurgeSecret()).toBe('');
    const shipped = await startVarnish({ appPorts: [Number(new URL(server.origin).port)], purgeSecret: shippedPurgeSecret() });
    try {
      const tries: Array<Record<string, string>> = [{}, { 'X-Purge-Secret': '' }, { 'X-Purge-Secret': TEST_PURGE_SECRET }];
      for (const headers of tries) {
        expect((await readerPurge(shipped.origin, headers)).status).toBe(403);
      }
    } finally {
      await shipped.stop();
    }
  });

  it("marks the app server sick once it stops answering Varnish's probe", async () => {
    expect(await backendHealth(varnish!)).toEqual({ app1: 'healthy' });
    await server.stop();
    await until(
      () => backendHealth(varnish!),
      (health) => health.app1 === 'sick',
      'the probe to mark app1 sick',
    );
  });
});
