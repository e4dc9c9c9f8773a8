import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, untilPrerendered, type TestServer } from '../support/server.ts';
import { until } from '../support/wait.ts';
import { bearer, loginAsAdmin } from '../support/auth.ts';
import { uniqueName } from '../support/builders.ts';
import { call, refreshStatus, renameFirstCategory, untilRefreshDrained, type Json } from './http-support.ts';

/**
 * No render runs on the thread that serves readers: misses, background refreshes and the hot
 * renders of a save are done by the render workers (counted in the admin's refresh status), and
 * while one render is held back (a test seam: PAGE_STORE_TEST_HOLD names a file whose content is
 * the key to hold), readers of stored pages are answered.
 */

interface RefreshStatus {
  queued: number;
  refreshedSinceLastChange: number;
  renderedByWorkers: number;
}

let server: TestServer;
let auth: Record<string, string>;
let holdDir: string;
let holdFile: string;

beforeAll(async () => {
  holdDir = fs.mkdtempSync(path.join(os.tmpdir(), 'render-hold-'));
  holdFile = path.join(holdDir, 'hold');
  // One process: the tests count the renders one change causes on one process's workers, and take
  // a page out of the file that another process would still hold in memory. Two processes' render workers are tested in several-processes.test.ts.
  server = await startServer({
    env: { TOP_VIEWED_REFRESH_SECONDS: '3600', RENDER_WORKERS: '2', PAGE_STORE_TEST_HOLD: holdFile, WEB_PROCESSES: '1' },
  });
  await untilPrerendered(server);
  auth = bearer(await loginAsAdmin(server));
});

afterAll(async () => {
  await server?.stop();
  fs.rmSync(holdDir, { recursive: true, force: true });
});

const status = () => refreshStatus<RefreshStatus>(server, auth);

async function get(p: string) {
  const response = await fetch(server.url(p));
  return { status: response.status, state: response.headers.get('x-page-store'), html: await response.text() };
}

/** Takes a page out of the store's file, so the next reader of it is a miss. */
function dropStoredPage(key: string): void {
  const db = new SQLite(path.join(server.dir, 'pages', 'pages.sqlite'));
  try {
    db.pragma('busy_timeout = 5000');
    db.prepare('delete from pages where key = ?').run(key);
    db.prepare('delete from page_tags where key = ?').run(key);
  } finally {
    db.close();
  }
}

describe('render workers', () => {
  it('render a miss', async () => {
    const before = (await status()).renderedByWorkers;
    expect(before).toBeGreaterThan(0); // the pre-render
    dropStoredPage('/contact');
    const miss = await get('/contact');
    expect(miss).toMatchObject({ status: 200, state: 'MISS' });
    expect((await status()).renderedByWorkers).toBeGreaterThan(before);
    expect((await get('/contact')).state).toBe('HIT');
  });

  it('render the hot pages of a save and the background refresh', async () => {
    const before = (await status()).renderedByWorkers;
    const renamed = uniqueName('Worker subject');
    const { answer } = await renameFirstCategory(server, renamed, auth);
    expect(answer.status).toBe(200);
    const queued = ((answer.body as Json).refresh as { queued: number }).queued;
    expect(queued).toBeGreaterThan(10);
    // Hot pages first, before the save answered.
    const afterSave = (await status()).renderedByWorkers;
    expect(afterSave).toBeGreaterThan(before);
    const drained = await untilRefreshDrained<RefreshStatus>(server, auth);
    expect(drained.refreshedSinceLastChange).toBeGreaterThan(0);
    // Counted from before the save: the background refresh starts as the save answers, so some of
    // its renders may already be in `afterSave`.
    expect(drained.renderedByWorkers - before).toBeGreaterThanOrEqual(drained.refreshedSinceLastChange + 1);
    expect((await get('/?page=2')).html).toContain(renamed);
  });

  it('leave readers of stored pages answered while a render is held back', async () => {
    const blogs = (await call(server, '/api/blogs?limit=20')).body as Array<{ id: number }>;
    const stored = ['/', '/blogs', '/download', ...blogs.map((b) => `/blog/${b.id}`)];
    for (const p of stored) await get(p);

    // A page that is never stored: every request for it is a render.
    const missing = '/blog/987654321';
    fs.writeFileSync(holdFile, missing);
    let slowAnswered = false;
    const slow = get(missing).then((answer) => {
      slowAnswered = true;
      return answer;
    });
    await until(
      () => fs.existsSync(`${holdFile}.held`),
      (held) => held,
      `the render of ${missing} to be held`,
    );

    for (let round = 0; round < 3; round++) {
      for (const p of stored) expect(await get(p), p).toMatchObject({ status: 200, state: 'HIT' });
    }
    // All those readers were answered while the render was still held.
    expect(slowAnswered).toBe(false);

    fs.rmSync(holdFile);
    expect((await slow).status).toBe(404);
  });
});
