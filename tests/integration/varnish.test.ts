import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, untilPrerendered, type TestServer } from '../support/server.ts';
import { reservePort, startVarnish, TEST_PURGE_SECRET, varnishMissing, type TestVarnish } from '../support/varnish.ts';
import { bearer, loginAsAdmin } from '../support/auth.ts';
import { blogBodyFrom, buildCommentBody, uniqueName, type Json } from '../support/builders.ts';
import { makePdf } from '../support/files.ts';
import { call, sendForm, sendJson } from './http-support.ts';
import { until } from '../support/wait.ts';

/**
 * Real Varnish with deploy/varnish.vcl in front of the real built server (CI installs varnish and
 * varnish-modules with apt-get): public pages are cached and purged by tag when an admin saves,
 * so readers through Varnish see a change as soon as the save answers.
 */

const missing = varnishMissing();
if (missing) console.warn(`Skipping the Varnish tests: ${missing}.`);

interface Seen {
  status: number;
  cache: string | null;
  headers: Headers;
  text: string;
}

async function through(varnish: TestVarnish, path: string, headers: Record<string, string> = {}): Promise<Seen> {
  const response = await fetch(varnish.origin + path, { headers });
  return {
    status: response.status,
    cache: response.headers.get('x-cache'),
    headers: response.headers,
    text: await response.text(),
  };
}

/** The same server, addressed through Varnish: the API helpers then go through it too. */
const via = (server: TestServer, varnish: TestVarnish): TestServer => ({
  ...server,
  origin: varnish.origin,
  url: (p) => varnish.origin + p,
});

interface Blog extends Json {
  id: number;
  title: string;
  category_id: number | null;
}

/** A raw request from a chosen local address (the VCL's purge acl goes by the client address). */
function rawRequest(port: number, options: http.RequestOptions): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request({ host: '127.0.0.1', port, ...options }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    request.on('error', reject);
    request.end();
  });
}

/** A backend that is not the app: answers public, cacheable, and sets a cookie. */
function startCookieBackend(): Promise<{ port: number; hits: () => number; close: () => void }> {
  let hits = 0;
  const server = http.createServer((_req, res) => {
    hits++;
    res.writeHead(200, {
      'Content-Type': 'text/plain',
      'Cache-Control': 'public, s-maxage=600',
      'Set-Cookie': 'tracker=1; Path=/',
    });
    res.end(`answer ${hits}`);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ port: (server.address() as { port: number }).port, hits: () => hits, close: () => server.close() }),
    ),
  );
}

describe.skipIf(missing !== null)('behind Varnish (deploy/varnish.vcl)', () => {
  let server: TestServer;
  let varnish: TestVarnish;
  let cookieBackend: Awaited<ReturnType<typeof startCookieBackend>>;
  let auth: Record<string, string>;
  let cookie: string;

  beforeAll(async () => {
    const reserved = await reservePort();
    const origin = `http://127.0.0.1:${reserved.port}`;
    server = await startServer({
      env: {
        PUBLIC_ORIGIN: origin,
        PURGE_VARNISH: origin,
        PURGE_SECRET: TEST_PURGE_SECRET,
        // These tests check what readers see when a save answers: the save waits for its purge
        // however slow the machine (the short default bound is tested in varnish-guards.test.ts).
        PURGE_WAIT_MS: '10000',
        CDN_TAG_HEADERS: 'xkey,Surrogate-Key,Cache-Tag',
        TOP_VIEWED_REFRESH_SECONDS: '3600',
      },
    });
    await untilPrerendered(server);
    cookieBackend = await startCookieBackend();
    varnish = await startVarnish({
      appPorts: [Number(new URL(server.origin).port)],
      reserved,
      // A second backend, for the Set-Cookie rule: the app itself never sets a cookie on a public page.
      extraBackend: { port: cookieBackend.port, urlPrefix: '/cookie-probe' },
    });
    const session = await loginAsAdmin(server);
    auth = bearer(session);
    cookie = session.cookie;
  });

  afterAll(async () => {
    await varnish?.stop();
    await server?.stop();
    cookieBackend?.close();
  });

  const newest = async (): Promise<Blog> => ((await call(server, '/api/blogs?limit=1')).body as Blog[])[0]!;

  it("a reader's second request is a cache hit, and the tags never reach the reader", async () => {
    const blog = await newest();
    const first = await through(varnish, `/blog/${blog.id}`);
    expect(first.status).toBe(200);
    const second = await through(varnish, `/blog/${blog.id}`);
    expect(second.cache).toBe('HIT');
    expect(second.text).toBe(first.text);
    for (const seen of [first, second]) {
      for (const name of ['xkey', 'surrogate-key', 'cache-tag', 'x-page-tags']) expect(seen.headers.get(name), name).toBeNull();
      expect(seen.headers.get('cache-control')).toBe('public, max-age=0, must-revalidate');
    }
    // The app itself hands Varnish the tags in every configured header.
    const direct = await fetch(server.url(`/blog/${blog.id}`));
    expect(direct.headers.get('xkey')).toContain(`blog:${blog.id}`);
    expect(direct.headers.get('surrogate-key')).toContain(`blog:${blog.id}`);
    expect(direct.headers.get('cache-tag')).toContain(`blog:${blog.id},`);
    expect(direct.headers.get('cache-control')).toMatch(/s-maxage=\d+, stale-while-revalidate=\d+/);
  });

  it('after an edit, the article, home and category pages show the new title through Varnish when the save answers', async () => {
    const blog = await newest();
    const pages = [`/blog/${blog.id}`, '/', `/blogs?category=${blog.category_id}`, '/blogs'];
    for (const page of pages) {
      await through(varnish, page);
      const cached = await through(varnish, page);
      expect(cached.cache, page).toBe('HIT');
      expect(cached.text, page).toContain(escapeHtml(blog.title));
    }
    const title = uniqueName('Edited through Varnish');
    const saved = await sendJson(server, 'PUT', `/api/blogs/${blog.id}`, blogBodyFrom(blog, { title }), auth);
    expect(saved.status).toBe(200);
    expect(((saved.body as Json).refresh as Json).cdn).toEqual({ purged: 1, failed: [] });
    for (const page of pages) expect((await through(varnish, page)).text, page).toContain(title);
  });

  it('a page further down the lists is soft-purged: Varnish refreshes it without a reader waiting for a render', async () => {
    const all = (await call(server, '/api/blogs?limit=200')).body as Blog[];
    const oldest = all.at(-1)!;
    let deep: string | undefined;
    for (let page = 2; page <= 40 && !deep; page++) {
      const html = await (await fetch(server.url(`/blogs?page=${page}`))).text();
      if (html.includes(escapeHtml(oldest.title))) deep = `/blogs?page=${page}`;
    }
    expect(deep).toBeDefined();
    await through(varnish, deep!);
    expect((await through(varnish, deep!)).cache).toBe('HIT');
    const title = uniqueName('Old article renamed');
    const saved = await sendJson(server, 'PUT', `/api/blogs/${oldest.id}`, blogBodyFrom(oldest, { title }), auth);
    expect(saved.status).toBe(200);
    // Cached for a day (s-maxage) unless the soft purge reached it: the cache answers at once
    // and fetches the refreshed page in the background.
    await until(
      async () => {
        const seen = await through(varnish, deep!);
        expect(seen.status).toBe(200);
        return seen.text.includes(title);
      },
      (shown) => shown,
      `${deep} to show the new title through Varnish`,
    );
  });

  it('a comment appears through Varnish when it is answered', async () => {
    const blog = await newest();
    await through(varnish, `/blog/${blog.id}`);
    expect((await through(varnish, `/blog/${blog.id}`)).cache).toBe('HIT');
    const text = uniqueName('A comment through Varnish');
    const posted = await sendJson(
      via(server, varnish),
      'POST',
      `/api/blogs/${blog.id}/comment`,
      buildCommentBody({ comment: text }),
    );
    expect(posted.status).toBe(201);
    expect((await through(varnish, `/blog/${blog.id}`)).text).toContain(text);
  });

  it('a deleted article is gone through Varnish, and from the lists', async () => {
    const blog = await newest();
    for (const page of [`/blog/${blog.id}`, '/']) {
      await through(varnish, page);
      expect((await through(varnish, page)).cache).toBe('HIT');
    }
    expect((await sendJson(server, 'DELETE', `/api/blogs/${blog.id}`, {}, auth)).status).toBe(200);
    expect((await through(varnish, `/blog/${blog.id}`)).status).toBe(404);
    expect((await through(varnish, `/blog/${blog.id}`)).status).toBe(404);
    expect((await through(varnish, '/')).text).not.toContain(escapeHtml(blog.title));
  });

  it('an article turned back into a draft is gone through Varnish, and from the lists', async () => {
    const blog = await newest();
    const pages = [`/blog/${blog.id}`, '/', '/blogs'];
    for (const page of pages) {
      await through(varnish, page);
      expect((await through(varnish, page)).cache, page).toBe('HIT');
    }
    const saved = await sendJson(server, 'PUT', `/api/blogs/${blog.id}`, blogBodyFrom(blog, { status: 'draft' }), auth);
    expect(saved.status, saved.text).toBe(200);
    expect((await through(varnish, `/blog/${blog.id}`)).status).toBe(404);
    for (const page of ['/', '/blogs']) expect((await through(varnish, page)).text, page).not.toContain(escapeHtml(blog.title));
  });

  it('refuses purges from an address outside its acl, and honours them from inside with the secret', async () => {
    const refused = await rawRequest(varnish.port, {
      method: 'PURGE',
      path: '/',
      localAddress: '127.0.0.2',
      headers: { 'xkey-purge': 'nav', 'X-Purge-Secret': TEST_PURGE_SECRET },
    });
    expect(refused.status).toBe(403);
    await through(varnish, '/about');
    expect((await through(varnish, '/about')).cache).toBe('HIT');
    const allowed = await rawRequest(varnish.port, {
      method: 'PURGE',
      path: '/',
      headers: { 'xkey-purge': 'nav', 'X-Purge-Secret': TEST_PURGE_SECRET },
    });
    expect(allowed.status).toBe(200);
    expect((await through(varnish, '/about')).cache).toBe('MISS');
  });

  it('never caches an answer that sets a cookie', async () => {
    const answers = [await through(varnish, '/cookie-probe'), await through(varnish, '/cookie-probe')];
    expect(answers.map((answer) => answer.text)).toEqual(['answer 1', 'answer 2']);
    expect(answers.every((answer) => answer.headers.get('set-cookie') === 'tracker=1; Path=/')).toBe(true);
    expect(cookieBackend.hits()).toBe(2);
  });

  it("never caches a logged-in admin's pages, nor admin screens, the API or search results", async () => {
    const blog = await newest();
    for (const page of [`/blog/${blog.id}`, '/admin', '/api/users/me']) {
      for (let i = 0; i < 2; i++) {
        const seen = await through(varnish, page, { Cookie: cookie });
        expect(seen.status, page).toBe(200);
        expect(seen.cache, page).toBe('MISS');
        expect(seen.headers.get('cache-control'), page).toMatch(/^private|^no-store/);
      }
    }
    for (let i = 0; i < 2; i++) {
      const search = await through(varnish, '/blogs?search=notes');
      expect(search.cache).toBe('MISS');
      expect(search.headers.get('cache-control')).toBe('private, no-store');
    }
  });

  it('answers Range requests for an uploaded PDF, from the app and from its cache', async () => {
    const pdf = makePdf('Range through Varnish', ['line one', 'line two']);
    const uploaded = await sendForm(
      server,
      '/api/blogs/upload-pdf-local',
      { pdfFile: { data: pdf, name: 'notes.pdf', type: 'application/pdf' } },
      auth,
    );
    expect(uploaded.status).toBe(201);
    const link = (uploaded.body as { link: string }).link;
    for (const expected of ['MISS', 'HIT']) {
      const response = await fetch(varnish.origin + link, { headers: { Range: 'bytes=10-109' } });
      expect(response.status).toBe(206);
      expect(response.headers.get('content-range')).toBe(`bytes 10-109/${pdf.length}`);
      expect(Buffer.from(await response.arrayBuffer()).equals(pdf.subarray(10, 110))).toBe(true);
      expect(response.headers.get('x-cache')).toBe(expected);
    }
    const whole = await fetch(varnish.origin + link);
    expect(Buffer.from(await whole.arrayBuffer()).equals(pdf)).toBe(true);
    expect(whole.headers.get('cache-control')).toContain('immutable');
  });

  it('GET /healthz answers through Varnish, checking the database and the store', async () => {
    const health = await through(varnish, '/healthz');
    expect(health.status).toBe(200);
    expect(JSON.parse(health.text)).toEqual({ status: 'ok', database: 'ok', store: 'ok' });
  });
});

describe.skipIf(missing !== null)('two app servers on one data folder behind one Varnish', () => {
  let first: TestServer;
  let second: TestServer;
  let varnish: TestVarnish;
  let auth: Record<string, string>;

  beforeAll(async () => {
    const reserved = await reservePort();
    const origin = `http://127.0.0.1:${reserved.port}`;
    const env = {
      PUBLIC_ORIGIN: origin,
      PURGE_VARNISH: origin,
      PURGE_SECRET: TEST_PURGE_SECRET,
      PURGE_WAIT_MS: '10000',
      TOP_VIEWED_REFRESH_SECONDS: '3600',
    };
    first = await startServer({ env });
    // The same data folder, page store included: each server sees the tag versions the other bumps.
    second = await startServer({ dir: first.dir, env: { ...env, SEED_DEMO: 'false' } });
    varnish = await startVarnish({
      appPorts: [first, second].map((server) => Number(new URL(server.origin).port)),
      reserved,
    });
    auth = bearer(await loginAsAdmin(first));
  });

  afterAll(async () => {
    await varnish?.stop();
    await second?.stop();
    await first?.stop();
  });

  it('an edit through either server is fresh through Varnish when its save answers', async () => {
    const blog = ((await call(first, '/api/blogs?limit=1')).body as Blog[])[0]!;
    const pages = [`/blog/${blog.id}`, '/', `/blogs?category=${blog.category_id}`];
    let current = blog;
    for (const server of [first, second, first, second]) {
      for (const page of pages) {
        await through(varnish, page);
        expect((await through(varnish, page)).cache, page).toBe('HIT');
      }
      const title = uniqueName('Edited on one of two servers');
      const saved = await sendJson(server, 'PUT', `/api/blogs/${blog.id}`, blogBodyFrom(current, { title }), auth);
      expect(saved.status).toBe(200);
      current = saved.body as Blog;
      for (const page of pages)
        expect((await through(varnish, page)).text, `${page} after an edit on ${server.origin}`).toContain(title);
    }
    // A hang guard: both servers are still pre-rendering every page, and on a busy machine the
    // first cold renders behind them took about 30 s.
  });
});

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}
