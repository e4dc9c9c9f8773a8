import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, untilPrerendered, type TestServer } from '../support/server.ts';
import { until } from '../support/wait.ts';
import { bearer, loginAsAdmin } from '../support/auth.ts';
import { blogBodyFrom, uniqueName } from '../support/builders.ts';
import { processTree } from '../support/processes.ts';
import { call, refreshStatus, renameFirstCategory, sendJson, untilRefreshDrained, type Json } from './http-support.ts';

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

describe('render workers after the pre-render', () => {
  let fresh: TestServer;

  beforeAll(async () => {
    // A rest spell of ten minutes: only the end of the pre-render, or of the top-viewed refresh
    // (checked every second), can stop them within the test.
    fresh = await startServer({ env: { TOP_VIEWED_REFRESH_SECONDS: '1', RENDER_WORKERS_REST_SECONDS: '600' } });
    await untilPrerendered(fresh);
  });

  afterAll(async () => {
    await fresh?.stop();
  });

  it('stop once their share is stored, not a rest spell later, and a miss is still rendered', async (context) => {
    // Counted by their nice value (10 between renders), as in the tests below.
    if (process.platform !== 'linux') return context.skip();
    const threads = () => niceThreadsOf(processTree(fresh.process.pid!).slice(1));
    await until(threads, (count) => count === 0, 'the render workers to stop after the pre-render');
    // A miss is rendered by a worker started for it.
    expect((await fetch(fresh.url('/blog/987654321'))).status).toBe(404);
  });

  it('stop once a view counted and the top-viewed refresh it caused are done', async (context) => {
    if (process.platform !== 'linux') return context.skip();
    const threads = () => niceThreadsOf(processTree(fresh.process.pid!).slice(1));
    // The miss above kept its worker up a rest spell: nothing but this test's refresh may stop it.
    const home = async () => (await fetch(fresh.url('/'))).text();
    const before = await home();
    // One of the list: its count moves the list's fingerprint.
    const blog = ((await call(fresh, '/api/blogs/top-viewed')).body as Json[])[0]!;
    // What every article page a browser opens sends: a view, no change of a page.
    expect((await sendJson(fresh, 'PUT', `/api/blogs/${String(blog.id)}/click`, {})).status).toBe(204);
    // Every home page shows the top-viewed list with its counts: the check refreshes them.
    await until(home, (html) => html !== before, 'the home page to show the new count');
    await until(threads, (count) => count === 0, 'the render workers to stop after the top-viewed refresh');
  });
});

/** Threads of these processes away from nice 0: render workers (10 between renders, -5 in one someone waits for). */
function niceThreadsOf(pids: number[]): number {
  let count = 0;
  for (const pid of pids) {
    let tasks: string[];
    try {
      tasks = fs.readdirSync(`/proc/${pid}/task`);
    } catch {
      continue;
    }
    for (const tid of tasks) {
      try {
        if (os.getPriority(Number(tid)) !== 0) count++;
      } catch {
        // The thread ended meanwhile.
      }
    }
  }
  return count;
}

describe('render workers at rest', () => {
  let resting: TestServer;
  let restHold: string;

  beforeAll(async () => {
    restHold = path.join(holdDir, 'rest-hold');
    // Two processes, as users run it; workers stop after 10 s without a render (long enough for a
    // starved test to see a woken worker before it stops again).
    resting = await startServer({
      env: { TOP_VIEWED_REFRESH_SECONDS: '3600', RENDER_WORKERS_REST_SECONDS: '10', PAGE_STORE_TEST_HOLD: restHold },
    });
    await untilPrerendered(resting);
  });

  afterAll(async () => {
    await resting?.stop();
  });

  /**
   * Render worker threads running in the serving processes: the only threads away from nice 0
   * (10 between renders, -5 in a render someone waits for; a search page held 2 s runs at 0).
   */
  const servingProcesses = () => processTree(resting.process.pid!).slice(1);
  const renderThreadsOf = (pid: number) => niceThreadsOf([pid]);
  const renderThreads = () => servingProcesses().reduce((sum, pid) => sum + renderThreadsOf(pid), 0);

  it('stop after a spell without renders and start again for a render, a save and a search', async (context) => {
    // Without CAP_SYS_NICE the workers may still raise their nice value, which is all this counts.
    if (process.platform !== 'linux') return context.skip();
    await until(renderThreads, (count) => count === 0, 'the render workers to stop');

    // A reader's miss starts them; the render is held, so they cannot stop under it.
    const missing = '/blog/987654321';
    fs.writeFileSync(restHold, missing);
    const miss = fetch(resting.url(missing));
    await until(
      () => fs.existsSync(`${restHold}.held`),
      (held) => held,
      `the render of ${missing} to be held`,
    );
    expect(renderThreads()).toBeGreaterThan(0);
    fs.rmSync(restHold);
    expect((await miss).status).toBe(404);
    await until(renderThreads, (count) => count === 0, 'the render workers to stop again');

    // A save through the admin: its pages are rendered and live when it answers.
    const admin = bearer(await loginAsAdmin(resting));
    const blog = ((await call(resting, '/api/blogs?limit=1')).body as Json[])[0]!;
    const full = (await call(resting, `/api/blogs/${String(blog.id)}`)).body as Json;
    const title = uniqueName('Saved while the workers rested');
    const saved = await sendJson(resting, 'PUT', `/api/blogs/${String(blog.id)}`, blogBodyFrom(full, { title }), admin);
    expect(saved.status).toBe(200);
    const page = await fetch(resting.url(`/blog/${String(blog.id)}`));
    expect(await page.text()).toContain(title);

    // A search page is searched and rendered by a render worker too; the reader may search again
    // on a connection the other process takes, so both processes start their workers.
    await until(renderThreads, (count) => count === 0, 'the render workers to stop after the save');
    // Kept from the search on: on a busy machine the search page may take longer than the woken
    // sibling's workers take to start and rest again.
    const seen = new Set<number>();
    const look = () => {
      for (const pid of servingProcesses()) if (renderThreadsOf(pid) > 0) seen.add(pid);
      return seen.size;
    };
    const watching = setInterval(look, 20);
    try {
      const search = await fetch(resting.url(`/blogs?search=${encodeURIComponent('Saved while the workers rested')}`));
      expect(search.status).toBe(200);
      expect(await search.text()).toContain(`/blog/${String(blog.id)}`);
      await until(look, (processes) => processes === 2, 'both processes to start their render workers');
    } finally {
      clearInterval(watching);
    }
  });
});
