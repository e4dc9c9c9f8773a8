import { afterEach, describe, expect, it } from 'vitest';
import { startServer, untilPrerendered, type TestServer } from '../support/server.ts';
import { bearer, login, loginAsAdmin, registerUser } from '../support/auth.ts';
import { blogBodyFrom, uniqueName } from '../support/builders.ts';
import { call, sendJson, type Json, onFreshConnection as fresh } from './http-support.ts';
import { HANG_GUARD_MS, until as untilValue } from '../support/wait.ts';
import { blackHole, TEST_PURGE_SECRET } from '../support/varnish.ts';

/**
 * Several processes on the same files: two servers on two ports sharing one data folder, and one
 * server with WEB_PROCESSES=2 (node:cluster on one port). Changes, limits and sessions hold
 * whichever process answers. `X-Process` (test builds only) names the process that answered.
 */

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.stop()));
});

/** The first value `probe` answers (a failed probe counts as none yet). */
async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs?: number): Promise<T> {
  return (await untilValue(
    () => probe().catch(() => undefined),
    (value) => value !== undefined,
    what,
    timeoutMs,
  )) as T;
}

describe('two servers on the same data folder', () => {
  it('serve an admin edit made through the other fresh when the save answers, stored pages held in memory included', async () => {
    const one = await startServer({ env: { TOP_VIEWED_REFRESH_SECONDS: '3600' } });
    servers.push(one);
    await untilPrerendered(one);
    // The same public origin: the servers stand behind one address (and share the stored pages).
    const two = await startServer({ dir: one.dir, env: { PUBLIC_ORIGIN: one.origin, TOP_VIEWED_REFRESH_SECONDS: '3600' } });
    servers.push(two);
    const auth = bearer(await loginAsAdmin(one));

    const blogs = (await call(one, '/api/blogs')).body as Json[];
    for (const [writer, reader] of [
      [one, two],
      [two, one],
    ] as const) {
      const blog = (await call(writer, `/api/blogs/${String(blogs[0]!.id)}`)).body as Json;
      const pages = [`/blog/${String(blog.id)}`, '/', '/blogs'];
      // The reader holds every page in memory, fresh, with the old title on the ones showing it.
      const showing: string[] = [];
      for (const p of pages) {
        await fresh(reader.origin, p);
        const seen = await fresh(reader.origin, p);
        expect(seen.state, p).toBe('HIT');
        if (seen.body.includes(String(blog.title))) showing.push(p);
      }
      expect(showing).toContain(pages[0]);

      const title = uniqueName('Edited on the other server');
      const answer = await sendJson(writer, 'PUT', `/api/blogs/${String(blog.id)}`, blogBodyFrom(blog, { title }), auth);
      expect(answer.status).toBe(200);
      for (const p of showing) {
        const seen = await fresh(reader.origin, p);
        expect(seen.status, p).toBe(200);
        expect(seen.body, `${p} on the other server`).toContain(title);
        expect(seen.state, p).toBe('HIT');
      }
    }
  });
});

describe('WEB_PROCESSES=2', () => {
  it('counts login attempts exactly across processes and honours a session on either', async () => {
    const server = await startServer({
      env: { WEB_PROCESSES: '2', TRUST_PROXY: 'true', RATE_LIMIT_LOGIN_ACCOUNT: '4', RATE_LIMIT_LOGIN_IP: '6' },
    });
    servers.push(server);
    const user = await registerUser(server);
    const attempt = () =>
      fresh(server.origin, '/api/users/login', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': '198.51.100.9' },
        body: JSON.stringify({ email: user.email, password: 'not the password' }),
      });
    const answers = await Promise.all(Array.from({ length: 200 }, attempt));
    const tally: Record<number, number> = {};
    for (const a of answers) tally[a.status] = (tally[a.status] ?? 0) + 1;
    expect(tally).toEqual({ 401: 4, 429: 196 });
    expect(new Set(answers.map((a) => a.process)).size).toBe(2);

    const session = await login(server, user.email, user.password).catch(() => undefined);
    // That account's tries are used up from that address only; this login comes from the socket's own.
    expect(session).toBeDefined();
    const seenBy = new Set<string>();
    for (let i = 0; i < 40 && seenBy.size < 2; i++) {
      const me = await fresh(server.origin, '/api/users/me', { headers: { Cookie: session!.cookie } });
      expect(me.status).toBe(200);
      expect(((JSON.parse(me.body) as Json).user as Json | null)?.username).toBe(user.username);
      seenBy.add(me.process!);
    }
    expect(seenBy.size).toBe(2);
  });

  it('fills an empty page store with the render workers of every process', async () => {
    const server = await startServer({
      // The save below waits for the other process's share of its hot pages as long as it takes:
      // under 8 busy loops its renders took longer than the server's 2 s, and the saver rendered
      // them all itself.
      env: { WEB_PROCESSES: '2', TOP_VIEWED_REFRESH_SECONDS: '3600', RENDER_HELP_TEST_WAIT_MS: String(HANG_GUARD_MS) },
    });
    servers.push(server);
    await untilPrerendered(server);
    expect(server.output()).toMatch(/Pre-rendered \d+ pages in [\d.]+ s \(\d+ pages\/s\) by 2 processes/);
    // Each process answers for its own render pool: both rendered a share, before any reader asked.
    const auth = bearer(await loginAsAdmin(server));
    const rendered = new Map<string, number>();
    for (let i = 0; i < 40 && rendered.size < 2; i++) {
      const seen = await fresh(server.origin, '/api/admin/page-refresh', { headers: auth });
      expect(seen.status).toBe(200);
      rendered.set(seen.process!, (JSON.parse(seen.body) as Json).renderedByWorkers as number);
    }
    expect(rendered.size).toBe(2);
    for (const count of rendered.values()) expect(count).toBeGreaterThan(0);
    for (const path of ['/', '/blogs', '/download']) expect((await fresh(server.origin, path)).state, path).toBe('HIT');

    // A save's hot pages are rendered by both processes' workers, and all are fresh when it answers.
    const blogs = (await call(server, '/api/blogs')).body as Json[];
    const blog = (await call(server, `/api/blogs/${String(blogs[0]!.id)}`)).body as Json;
    const title = uniqueName('Rendered by both processes');
    const answer = await sendJson(server, 'PUT', `/api/blogs/${String(blog.id)}`, blogBodyFrom(blog, { title }), auth);
    expect(answer.status).toBe(200);
    expect(((answer.body as Json).refresh as Json).hot_elsewhere).toBeGreaterThan(0);
    for (const path of [`/blog/${String(blog.id)}`, '/', '/blogs']) {
      for (let i = 0; i < 4; i++) {
        const seen = await fresh(server.origin, path);
        expect(seen.body, path).toContain(title);
        expect(seen.state, path).toBe('HIT');
      }
    }
  });

  it('shows the admin the background refresh of a change from every process', async () => {
    const server = await startServer({ env: { WEB_PROCESSES: '2', TOP_VIEWED_REFRESH_SECONDS: '3600' } });
    servers.push(server);
    await untilPrerendered(server);
    const auth = bearer(await loginAsAdmin(server));
    const category = ((await call(server, '/api/categories')).body as Json[])[0]!;
    const renamed = await sendJson(
      server,
      'PUT',
      `/api/categories/${String(category.id)}`,
      { name: uniqueName('Renamed'), sequence: category.sequence },
      auth,
    );
    expect(renamed.status).toBe(200);
    expect(((renamed.body as Json).refresh as Json).queued).toBeGreaterThan(0);
    // Only the process that made the change refreshes its pages; either process answers the
    // admin, and both must tell the same whole once the queue drained.
    const drained = await until('both processes to report the drained refresh alike', async () => {
      const seen = new Map<string, Json>();
      for (let i = 0; i < 20; i++) {
        const answer = await fresh(server.origin, '/api/admin/page-refresh', { headers: auth });
        seen.set(answer.process!, JSON.parse(answer.body) as Json);
      }
      const figures = [...seen.values()].map((s) => `${String(s.queued)}/${String(s.refreshedSinceLastChange)}`);
      return seen.size === 2 && figures[0] === figures[1] && figures[0]!.startsWith('0/') && figures[0] !== '0/0'
        ? seen
        : undefined;
    });
    for (const status of drained.values()) expect(status.refreshedSinceLastChange).toBeGreaterThan(0);
  });

  it('replaces a serving process that was killed and keeps answering', async () => {
    const server = await startServer({ env: { WEB_PROCESSES: '2' } });
    servers.push(server);
    const pids = await until('both processes', async () => {
      const seen = new Set<string>();
      for (let i = 0; i < 20; i++) seen.add((await fresh(server.origin, '/healthz')).process!);
      return seen.size === 2 ? [...seen] : undefined;
    });
    process.kill(Number(pids[0]), 'SIGKILL');
    const replacement = await until('a new process answering', async () => {
      const seen = await fresh(server.origin, '/');
      return seen.status === 200 && !pids.includes(seen.process!) ? seen.process! : undefined;
    });
    expect(replacement).not.toBe(pids[0]);
    for (let i = 0; i < 20; i++) {
      const seen = await fresh(server.origin, '/blogs');
      expect(seen.status).toBe(200);
      expect([pids[1], replacement]).toContain(seen.process);
    }
    expect(server.output()).toMatch(/Serving process \d+ stopped \(SIGKILL\)/);
    // Its replacement started only once the pages it may have left stale were dropped.
    expect(server.output()).toMatch(/Page store: a serving process died; stored pages were dropped/);
  });

  it('shows the admin a purge pending on one process from every process', async () => {
    // A cache in front that accepts the purge and never answers: the save leaves it pending.
    const silent = await blackHole();
    try {
      const cacheOrigin = `http://127.0.0.1:${silent.port}`;
      const server = await startServer({
        env: {
          WEB_PROCESSES: '2',
          PURGE_VARNISH: cacheOrigin,
          PURGE_SECRET: TEST_PURGE_SECRET,
          CDN_TAG_HEADERS: 'xkey',
          TOP_VIEWED_REFRESH_SECONDS: '3600',
        },
      });
      servers.push(server);
      const auth = bearer(await loginAsAdmin(server));
      const blogs = (await call(server, '/api/blogs')).body as Json[];
      const blog = (await call(server, `/api/blogs/${String(blogs[0]!.id)}`)).body as Json;
      const saved = await sendJson(
        server,
        'PUT',
        `/api/blogs/${String(blog.id)}`,
        blogBodyFrom(blog, { title: uniqueName('Purge pending') }),
        auth,
      );
      expect(saved.status).toBe(200);
      // Pending until delivered (never, here) or given up after its retries: either way not forgotten.
      const purgesSeenBy = await until('both processes to answer the status', async () => {
        const seen = new Map<string, Json>();
        for (let i = 0; i < 20; i++) {
          const answer = await fresh(server.origin, '/api/admin/page-refresh', { headers: auth });
          seen.set(answer.process!, (JSON.parse(answer.body) as Json).cdn as Json);
        }
        return seen.size === 2 ? seen : undefined;
      });
      for (const [pid, cdn] of purgesSeenBy) {
        expect(
          (cdn.pending as number) + (cdn.givenUp as number),
          `process ${pid}: ${JSON.stringify(cdn)}`,
        ).toBeGreaterThanOrEqual(1);
      }
    } finally {
      await silent.release();
    }
  });
});
