import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server.ts';
import { bearer, loginAsAdmin } from '../support/auth.ts';
import { blogBodyFrom, buildBlogBody, type Json } from '../support/builders.ts';
import { untilTrue } from '../support/wait.ts';
import { sendJson } from './http-support.ts';

/**
 * Scheduled publishing happens in the server on its own: no request is made between scheduling
 * and the article going live (the test watches the database file, read-only), and the pages it
 * lands on are fresh at once. A schedule that fell due while the server was down publishes at start.
 */

let server: TestServer;
let admin: Record<string, string>;
let categoryId: number;

const page = async (target: TestServer, path: string) => {
  const response = await fetch(target.url(path));
  return { status: response.status, body: await response.text() };
};

/** The article's row, read from the database file without going through the server. */
function readRow(databasePath: string, id: number): { status: string; publish_at: string | null; updated_at: string } {
  const db = new Database(databasePath, { readonly: true, fileMustExist: true });
  try {
    return db.prepare('select status, publish_at, updated_at from blogs where id = ?').get(id) as never;
  } finally {
    db.close();
  }
}

async function schedule(target: TestServer, inMs: number): Promise<Json> {
  const publishAt = new Date(Date.now() + inMs).toISOString();
  const body = buildBlogBody(categoryId, { title: `Timed ${Date.now()}`, status: 'scheduled', publish_at: publishAt });
  const answer = await sendJson(target, 'POST', '/api/blogs', body, admin);
  expect(answer.status, answer.text).toBe(201);
  return answer.body as Json;
}

const wentLive = (target: TestServer, id: unknown) =>
  new RegExp(`Scheduled publish: articles? [\\d, ]*\\b${String(id)}\\b`).test(target.output());

const links = (html: string, id: unknown) => html.includes(`href="/blog/${String(id)}"`);

beforeAll(async () => {
  server = await startServer({ env: { SEED_DEMO: 'false' } });
  admin = bearer(await loginAsAdmin(server));
  const category = await sendJson(server, 'POST', '/api/categories', { name: 'Timetables', sequence: 0 }, admin);
  categoryId = (category.body as { id: number }).id;
  expect((await sendJson(server, 'POST', '/api/blogs', buildBlogBody(categoryId), admin)).status).toBe(201);
});

afterAll(() => server?.stop());

describe('a scheduled article', () => {
  it('goes live at publish_at by itself, not before, and its pages are fresh at that moment', async () => {
    // Far off first, so the checks below see it unpublished however slow the machine is.
    const blog = await schedule(server, 60 * 60_000);
    const watched = ['/', '/blogs', `/blogs?category=${categoryId}`];
    // The pages are stored without it, and its own page is a 404.
    for (const path of watched) expect(links((await page(server, path)).body, blog.id), path).toBe(false);
    expect((await page(server, `/blog/${String(blog.id)}`)).status).toBe(404);
    const soon = new Date(Date.now() + 1_500).toISOString();
    const moved = await sendJson(
      server,
      'PUT',
      `/api/blogs/${String(blog.id)}`,
      blogBodyFrom(blog, { status: 'scheduled', publish_at: soon }),
      admin,
    );
    expect(moved.status, moved.text).toBe(200);

    // No request from here until the database says it is published.
    await untilTrue(() => readRow(server.databasePath, blog.id as number).status === 'published', 'the scheduled publish');
    const row = readRow(server.databasePath, blog.id as number);
    expect(Date.parse(row.updated_at)).toBeGreaterThanOrEqual(Date.parse(row.publish_at!));

    // The log line comes once the publish's page refresh has answered, as an admin's save would.
    await untilTrue(() => wentLive(server, blog.id), 'the publish log line');
    expect((await page(server, `/blog/${String(blog.id)}`)).status).toBe(200);
    for (const path of watched) expect(links((await page(server, path)).body, blog.id), `${path} after the publish`).toBe(true);
  });

  it('a schedule saved with an earlier time wakes the timer', async () => {
    const later = await schedule(server, 60 * 60_000);
    const sooner = await schedule(server, 2_500);
    await untilTrue(() => readRow(server.databasePath, sooner.id as number).status === 'published', 'the sooner publish');
    expect(readRow(server.databasePath, later.id as number).status).toBe('scheduled');
  });
});

describe('a schedule that fell due while the server was down', () => {
  it('publishes at start, with fresh pages', async () => {
    const blog = await schedule(server, 60 * 60_000);
    expect(links((await page(server, '/')).body, blog.id)).toBe(false);
    await server.stop();
    // While it was down, its time came: moved into the past in the file itself.
    const db = new Database(server.databasePath);
    db.prepare('update blogs set publish_at = ? where id = ?').run(new Date(Date.now() - 60_000).toISOString(), blog.id);
    db.close();

    server = await startServer({ dir: server.dir, env: { SEED_DEMO: 'false' } });
    admin = bearer(await loginAsAdmin(server));
    await untilTrue(() => wentLive(server, blog.id), 'the publish at start');
    expect(readRow(server.databasePath, blog.id as number).status).toBe('published');
    expect((await page(server, `/blog/${String(blog.id)}`)).status).toBe(200);
    expect(links((await page(server, '/')).body, blog.id)).toBe(true);
  });
});
