import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, untilPrerendered, type TestServer } from '../support/server.ts';
import { processTree } from '../support/processes.ts';
import { bearer, loginAsAdmin } from '../support/auth.ts';
import { makePng } from '../support/files.ts';
import { call, uploadImage, type Json } from './http-support.ts';

/**
 * Image handling (sharp, over libvips) costs a serving process about 30 MB once loaded. Readers
 * never need it, so a server that has only served pages has not loaded it in any process; the
 * first image upload loads it where the upload lands.
 */

let server: TestServer;

/** Whether a process has a library mapped whose path matches. */
function hasMapped(pid: number, library: RegExp): boolean {
  try {
    return library.test(fs.readFileSync(`/proc/${pid}/maps`, 'utf8'));
  } catch {
    return false;
  }
}

/** The server's processes that have libvips mapped. */
function processesWithLibvips(): number[] {
  return processTree(server.process.pid!).filter((pid) => hasMapped(pid, /libvips/));
}

beforeAll(async () => {
  server = await startServer({ env: { SEED_DEMO: 'false' } });
  await untilPrerendered(server);
});

afterAll(async () => {
  await server?.stop();
});

describe('libraries only some requests need', () => {
  it('are not loaded by serving pages, and are loaded by the first image upload', async () => {
    for (const page of ['/', '/blogs', '/about', '/download', '/login']) expect((await call(server, page)).status).toBe(200);
    expect(processTree(server.process.pid!).length).toBeGreaterThan(1);
    expect(processesWithLibvips()).toEqual([]);

    const auth = bearer(await loginAsAdmin(server));
    const answer = await uploadImage(server, { data: await makePng(64, 48), name: 'cover.png', type: 'image/png' }, auth);
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    expect(String((answer.body as Json).url)).toMatch(/^\/uploads\/images\//);
    expect(processesWithLibvips().length).toBe(1);
  });
});

describe('the first process, which only watches the serving ones', () => {
  it('has not loaded SQLite: the database and the page store were prepared by a child process of its own', () => {
    const serving = processTree(server.process.pid!).filter((pid) => pid !== server.process.pid);
    // The serving processes have it, so the check below would see it if it were there.
    for (const pid of serving) expect(hasMapped(pid, /better[-_]sqlite3/)).toBe(true);
    expect(hasMapped(server.process.pid!, /better[-_]sqlite3/)).toBe(false);
  });
});

describe("a serving process's memory settings", () => {
  it('start every serving process with a bounded heap growth and a small young generation', () => {
    const serving = processTree(server.process.pid!).filter((pid) => pid !== server.process.pid);
    expect(serving.length).toBe(2);
    for (const pid of serving) {
      const args = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      expect(args).toEqual(expect.arrayContaining(['--max-semi-space-size=2', '--heap-growing-percent=40']));
    }
  });
});
