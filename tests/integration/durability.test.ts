import path from 'node:path';
import zlib from 'node:zlib';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killServerHard, startServer, untilPrerendered, type TestServer } from '../support/server.ts';
import { bearer, loginAsAdmin } from '../support/auth.ts';
import { blogBodyFrom } from '../support/builders.ts';
import { untilTrue } from '../support/wait.ts';
import { etagOf } from '../../src/server/page-store/page-etag.ts';

/**
 * Crashes (issue "Hardening", Crashes and durability): the server is killed with SIGKILL in the
 * middle of a burst of comments and admin edits, then started again on the same files. Every write
 * that was answered with success must be there, both SQLite files must pass integrity_check, no
 * stored page may be partial, and no page may show data from before a committed write.
 */

type Json = Record<string, unknown>;

const COMMENT_WORKERS = 16;
const EDITED_ARTICLES = 2;
const ROUNDS = 2;

let server: TestServer;
let port: string;
let auth: Record<string, string>;
let articleIds: number[] = [];
const blogs = new Map<number, Json>();

/** What the clients saw: writes answered with success, and the edit each article had in flight. */
const answeredComments = new Map<number, string[]>();
const answeredTitles = new Map<number, string[]>();
const inFlightTitle = new Map<number, string | null>();

function startOn(dir?: string): Promise<TestServer> {
  return startServer({
    ...(dir ? { dir } : {}),
    env: { ...(port ? { PORT: port } : {}), TOP_VIEWED_REFRESH_SECONDS: '3600', RATE_LIMIT_COMMENT_IP: '1000000' },
  });
}

/** Posts comments and edits until the server stops answering; records what was answered 2xx. */
function runBurst(
  round: number,
  target: TestServer,
): { done: Promise<void>; counts: () => { comments: number; edits: number }; expectFailures: () => void } {
  // Failed requests are expected only once the kill is on its way.
  let killing = false;
  let comments = 0;
  let edits = 0;
  let serial = 0;
  const commentWorker = async (worker: number) => {
    for (;;) {
      const blogId = articleIds[(worker + serial) % articleIds.length]!;
      const text = `durable r${round} w${worker} n${++serial}`;
      try {
        const response = await fetch(target.url(`/api/blogs/${blogId}/comment`), {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ username: `Reader ${worker}`, comment: text, contact: '' }),
        });
        if (response.status === 201) {
          answeredComments.get(blogId)!.push(text);
          comments++;
        } else {
          throw new Error(`Comment answered ${response.status}: ${await response.text()}`);
        }
        await response.body?.cancel();
      } catch (error) {
        if (!killing) throw error;
        return;
      }
    }
  };
  const editWorker = async (blogId: number) => {
    for (let n = 1; ; n++) {
      const title = `Durable title ${blogId} r${round} e${n}`;
      inFlightTitle.set(blogId, title);
      try {
        const response = await fetch(target.url(`/api/blogs/${blogId}`), {
          method: 'PUT',
          headers: { 'Content-Type': 'application/json', ...auth },
          body: JSON.stringify(blogBodyFrom(blogs.get(blogId)!, { title })),
        });
        if (response.status !== 200) throw new Error(`Edit answered ${response.status}: ${await response.text()}`);
        answeredTitles.get(blogId)!.push(title);
        inFlightTitle.set(blogId, null);
        edits++;
        await response.body?.cancel();
      } catch (error) {
        if (!killing) throw error;
        return;
      }
    }
  };
  const done = Promise.all([
    ...Array.from({ length: COMMENT_WORKERS }, (_, worker) => commentWorker(worker)),
    ...articleIds.slice(0, EDITED_ARTICLES).map((id) => editWorker(id)),
  ]).then(() => undefined);
  return { done, counts: () => ({ comments, edits }), expectFailures: () => (killing = true) };
}

function openFile(file: string): SQLite.Database {
  const db = new SQLite(file);
  db.pragma('busy_timeout = 5000');
  return db;
}

function expectIntegrityOk(file: string): void {
  const db = openFile(file);
  try {
    expect(db.pragma('integrity_check', { simple: true }), file).toBe('ok');
  } finally {
    db.close();
  }
}

interface PageRow {
  key: string;
  content_type: string;
  etag: string;
  tags: string;
  body: Buffer | null;
  gzip: Buffer | null;
  br: Buffer | null;
}

/**
 * Every stored page is whole: its body (kept as rendered, or in brotli only) and the encodings made
 * so far decode to the same page, and its ETag is that page's hash.
 */
function expectNoPartialPage(pageStoreFile: string): number {
  const db = openFile(pageStoreFile);
  try {
    const rows = db.prepare('select key, content_type, etag, tags, body, gzip, br from pages').all() as PageRow[];
    for (const row of rows) {
      expect(row.body ?? row.br, `${row.key} has neither a body nor a brotli copy`).not.toBeNull();
      const body = row.body ?? zlib.brotliDecompressSync(row.br!);
      expect(body.length, row.key).toBeGreaterThan(0);
      if (row.gzip) expect(zlib.gunzipSync(row.gzip).equals(body), `${row.key}: gzip differs from the body`).toBe(true);
      if (row.br) expect(zlib.brotliDecompressSync(row.br).equals(body), `${row.key}: brotli differs from the body`).toBe(true);
      expect(row.etag, `${row.key}: ETag is not the body's`).toBe(etagOf(body));
      expect(() => JSON.parse(row.tags) as unknown, row.key).not.toThrow();
      // A render cut short would still hash and compress consistently: the document must be complete.
      if (row.content_type.startsWith('text/html'))
        expect(body.includes('</html>'), `${row.key} is not a complete document`).toBe(true);
    }
    return rows.length;
  } finally {
    db.close();
  }
}

/** The database as the crash left it: every answered write is there; an unanswered edit may be too. */
function expectAnsweredWritesStored(databaseFile: string): Map<number, string> {
  const db = openFile(databaseFile);
  const titles = new Map<number, string>();
  try {
    const hasComment = db.prepare('select count(*) as n from comments where blog_id = ? and comment = ?');
    for (const [blogId, texts] of answeredComments) {
      for (const text of texts) expect((hasComment.get(blogId, text) as { n: number }).n, `comment "${text}"`).toBe(1);
    }
    for (const [blogId, answered] of answeredTitles) {
      const { title } = db.prepare('select title from blogs where id = ?').get(blogId) as { title: string };
      const allowed = [answered.at(-1), inFlightTitle.get(blogId)].filter(Boolean);
      expect(allowed, `article ${blogId}: its title must be the last answered edit or the one in flight`).toContain(title);
      titles.set(blogId, title);
    }
  } finally {
    db.close();
  }
  return titles;
}

async function fetchPage(target: TestServer, pathname: string): Promise<{ status: number; state: string | null; html: string }> {
  const response = await fetch(target.url(pathname));
  return { status: response.status, state: response.headers.get('x-page-store'), html: await response.text() };
}

beforeAll(async () => {
  server = await startOn();
  port = new URL(server.origin).port;
  auth = bearer(await loginAsAdmin(server));
  const list = (await (await fetch(server.url('/api/blogs?limit=6'))).json()) as Json[];
  articleIds = list.map((blog) => blog.id as number);
  for (const id of articleIds) {
    blogs.set(id, (await (await fetch(server.url(`/api/blogs/${id}`))).json()) as Json);
    answeredComments.set(id, []);
  }
  for (const id of articleIds.slice(0, EDITED_ARTICLES)) answeredTitles.set(id, []);
});

afterAll(async () => {
  await server?.stop();
});

describe('a server killed with SIGKILL mid-burst', () => {
  it('keeps every answered write, stays consistent and serves no stale page after a restart', async () => {
    for (let round = 1; round <= ROUNDS; round++) {
      // Pages of the articles under fire are in the store, so a lost invalidation would show.
      for (const id of articleIds) await fetchPage(server, `/blog/${id}`);
      const burst = runBurst(round, server);
      let failure: unknown;
      burst.done.catch((error: unknown) => (failure = error));
      const before = { comments: [...answeredComments.values()].flat().length };
      await untilTrue(() => {
        if (failure) throw failure;
        return burst.counts().comments >= 60 && burst.counts().edits >= 2 * EDITED_ARTICLES;
      }, 'the burst to be under way');
      await new Promise((resolve) => setTimeout(resolve, Math.floor(Math.random() * 40)));
      burst.expectFailures();
      await killServerHard(server);
      await burst.done;
      const answered = [...answeredComments.values()].flat().length - before.comments;
      expect(answered).toBeGreaterThanOrEqual(60);

      // The files exactly as the kill left them.
      expectIntegrityOk(server.databasePath);
      expectIntegrityOk(path.join(server.dir, 'pages', 'pages.sqlite'));
      expect(expectNoPartialPage(path.join(server.dir, 'pages', 'pages.sqlite'))).toBeGreaterThan(0);
      const titles = expectAnsweredWritesStored(server.databasePath);

      server = await startOn(server.dir);
      expect(server.output()).toMatch(/did not close cleanly/);
      for (const id of articleIds) {
        const detail = (await (await fetch(server.url(`/api/blogs/${id}`))).json()) as {
          title: string;
          comments: Array<{ comment: string }>;
        };
        const shown = new Set(detail.comments.map((c) => c.comment));
        for (const text of answeredComments.get(id)!) expect(shown.has(text), `comment "${text}" via the API`).toBe(true);

        const first = await fetchPage(server, `/blog/${id}`);
        expect(first.status).toBe(200);
        for (const text of answeredComments.get(id)!) expect(first.html, `comment "${text}" on /blog/${id}`).toContain(text);
        if (titles.has(id)) {
          expect(detail.title).toBe(titles.get(id));
          expect(first.html).toContain(titles.get(id));
        }
        const second = await fetchPage(server, `/blog/${id}`);
        expect(second.state, `/blog/${id} should be stored fresh after one request`).toBe('HIT');
        expect(second.html).toBe(first.html);
      }
      expectIntegrityOk(server.databasePath);
    }
  });

  it('drops stored pages a committed write may not have reached; a clean stop keeps them', async () => {
    const id = articleIds.at(-1)!;
    const readTitle = async () => ((await (await fetch(server.url(`/api/blogs/${id}`))).json()) as { title: string }).title;
    const setTitleBehindTheServer = (title: string) => {
      // A commit whose page-store invalidation never happened: exactly what a kill between the two leaves.
      const db = openFile(server.databasePath);
      db.prepare('update blogs set title = ? where id = ?').run(title, id);
      db.close();
    };

    // main.ts handles SIGTERM once its start-up pre-render is over; before that a stop is a kill.
    await untilPrerendered(server);
    const original = await readTitle();
    expect((await fetchPage(server, `/blog/${id}`)).html).toContain(original);
    expect((await fetchPage(server, `/blog/${id}`)).state).toBe('HIT');

    // After a clean stop the store is trusted as it is, so a change it was never told about stays unseen.
    await server.stop();
    setTitleBehindTheServer('Changed while stopped cleanly');
    server = await startOn(server.dir);
    expect(server.output()).not.toMatch(/did not close cleanly/);
    const kept = await fetchPage(server, `/blog/${id}`);
    expect(kept.state).toBe('HIT');
    expect(kept.html).toContain(original);

    // After a crash it is not: the page is rendered again from the database.
    await killServerHard(server);
    setTitleBehindTheServer('Changed around a crash');
    server = await startOn(server.dir);
    expect(server.output()).toMatch(/did not close cleanly/);
    const fresh = await fetchPage(server, `/blog/${id}`);
    expect(fresh.html).toContain('Changed around a crash');
    expect(fresh.html).not.toContain(original);
  });
});
