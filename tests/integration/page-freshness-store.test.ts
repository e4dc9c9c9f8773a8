import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer, untilPrerendered, type TestServer } from '../support/server.ts';
import { bearer, loginAsAdmin } from '../support/auth.ts';
import { blogBodyFrom, buildCommentBody, uniqueName } from '../support/builders.ts';
import { call, onFreshConnection, sendJson, type Json } from './http-support.ts';

/** The page store's own limits: a disk budget with least-recently-used eviction, and failures that never fail a write. */

let server: TestServer | undefined;

afterEach(async () => {
  await server?.stop();
  server = undefined;
});

function readStore(dir: string): { bytes: number; keys: Set<string> } {
  const db = new SQLite(path.join(dir, 'pages', 'pages.sqlite'), { readonly: true });
  try {
    const bytes = (
      db
        .prepare(
          'select coalesce(sum(coalesce(length(body), 0) + coalesce(length(gzip), 0) + coalesce(length(br), 0)), 0) as n from pages',
        )
        .get() as { n: number }
    ).n;
    const keys = new Set((db.prepare('select key from pages').all() as Array<{ key: string }>).map((row) => row.key));
    return { bytes, keys };
  } finally {
    db.close();
  }
}

describe('the page store limits', () => {
  // Both processes render and store pages (each request on a connection of its own): each must
  // count what the other wrote.
  it.each(['1', '2'])(
    'stays under PAGE_STORE_MAX_MB while many pages are rendered, keeping the recently used ones (WEB_PROCESSES=%s)',
    async (processes) => {
      const limit = 1024 * 1024;
      server = await startServer({
        env: { PAGE_STORE_MAX_MB: '1', PAGE_MEMORY_MB: '1', TOP_VIEWED_REFRESH_SECONDS: '3600', WEB_PROCESSES: processes },
      });
      await untilPrerendered(server);
      const s = server;
      expect(readStore(s.dir).bytes).toBeLessThanOrEqual(limit);
      const prerendered = Number(/Pre-rendered (\d+) pages/.exec(s.output())![1]);

      // Pre-rendered pages are kept in brotli (the demo site fits in the budget): articles whose
      // text does not compress, each stored as rendered by the save that waits for it, overflow it.
      const auth = bearer(await loginAsAdmin(s));
      const [first] = (await call(s, '/api/blogs?limit=1')).body as Array<Json>;
      const added: number[] = [];
      for (let i = 0; i < 24; i++) {
        const text = crypto.randomBytes(48 * 1024).toString('base64');
        const created = await sendJson(
          s,
          'POST',
          '/api/blogs',
          blogBodyFrom(first!, { title: uniqueName('Bulky'), content: `<p>${text}</p>`, content_source: text }),
          auth,
        );
        expect(created.status, created.text).toBe(201);
        added.push((created.body as { id: number }).id);
      }
      const blogs = (await call(s, '/api/blogs?limit=200')).body as Array<{ id: number }>;
      expect(blogs.length).toBeGreaterThan(20);
      const recent = '/about';
      for (const blog of blogs) {
        expect((await onFreshConnection(s.origin, recent)).status).toBe(200);
        expect((await onFreshConnection(s.origin, `/blog/${blog.id}`)).status).toBe(200);
      }
      const after = readStore(s.dir);
      expect(after.bytes).toBeLessThanOrEqual(limit);
      // More pages than fit were rendered.
      expect(after.keys.size).toBeLessThan(prerendered + added.length);
      // The one used all along and the last one read are still on disk where one process read
      // them and made the evictions. With two, a process notes its reads in the file only at its
      // own evictions (a read from memory notes nothing), so the other may drop a page it reads
      // often from the file, and it keeps answering that page from its memory.
      if (processes === '1') {
        expect(after.keys.has(recent)).toBe(true);
        expect(after.keys.has(`/blog/${blogs.at(-1)!.id}`)).toBe(true);
      }
      expect((await onFreshConnection(s.origin, recent)).status).toBe(200);
    },
  ); // the start-up pre-render may take minutes on a loaded machine

  it('a save and a comment that committed answer success when the store cannot write, and pages show them', async () => {
    server = await startServer({ env: { PAGE_STORE_TEST_FAULT: 'full', TOP_VIEWED_REFRESH_SECONDS: '3600' } });
    await untilPrerendered(server);
    const s = server;
    const auth = bearer(await loginAsAdmin(s));
    const [blog] = (await call(s, '/api/blogs?limit=1')).body as Array<{ id: number } & Json>;
    // The page was rendered before the change (kept in memory only).
    expect((await fetch(s.url(`/blog/${blog!.id}`))).status).toBe(200);

    const title = uniqueName('Saved on a full disk');
    const saved = await sendJson(s, 'PUT', `/api/blogs/${blog!.id}`, blogBodyFrom(blog!, { title }), auth);
    expect(saved.status).toBe(200);
    const text = uniqueName('Comment on a full disk');
    const posted = await sendJson(
      s,
      'POST',
      `/api/blogs/${blog!.id}/comment`,
      buildCommentBody({ comment: text, contact: 'none' }),
    );
    expect(posted.status).toBe(201);

    const stored = (await call(s, `/api/blogs/${blog!.id}`)).body as { comments: Array<{ comment: string }> };
    expect(stored.comments.filter((c) => c.comment === text)).toHaveLength(1);
    const page = await (await fetch(s.url(`/blog/${blog!.id}`))).text();
    expect(page).toContain(title);
    expect(page).toContain(text);
    const home = await (await fetch(s.url('/'))).text();
    expect(home).toContain(title);
    // Logged once by each serving process that met it, with the store's path, not per write or per request.
    const file = path.join(s.dir, 'pages', 'pages.sqlite');
    const logged = s.output().split(`Page store ${file}: a write failed`).length - 1;
    expect(logged).toBeGreaterThanOrEqual(1);
    expect(logged).toBeLessThanOrEqual(2);

    // The versions never reached the file: the next start must not trust its pages.
    await s.stop();
    const markers = fs.readdirSync(path.join(s.dir, 'pages')).filter((name) => name.startsWith('running-'));
    expect(markers.length).toBeGreaterThan(0);
  });
});
