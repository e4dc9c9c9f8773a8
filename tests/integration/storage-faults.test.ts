import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killServerHard, startServer, untilPrerendered, type TestServer } from '../support/server.ts';
import { bearer, loginAsAdmin } from '../support/auth.ts';
import { buildBlogBody, buildCategory, buildCommentBody, uniqueName, type Json } from '../support/builders.ts';
import { until } from '../support/wait.ts';
import { call, onFreshConnection, sendJson, type FreshAnswer } from './http-support.ts';

/**
 * A cache fault never stops the site, and a full disk is said as such: a page store damaged in
 * its pages, an index or its WAL is set aside at start (two serving processes), its name printed,
 * and nothing says the database is damaged; a database that cannot grow answers writes 507 with
 * nothing saved, and /healthz reports it until writes work again.
 */

const STORE = 'pages.sqlite';

/** A data folder whose page store holds the pre-rendered site, closed cleanly (no crash marker). */
async function prerenderedFolder(): Promise<string> {
  const server = await startServer({ env: { TOP_VIEWED_REFRESH_SECONDS: '3600' } });
  try {
    await untilPrerendered(server);
    // Some writes after the pre-render, so the store's WAL holds frames when the server is killed.
    for (const encoding of ['br', 'gzip']) {
      for (const page of ['/', '/blogs', '/about']) {
        await fetch(server.url(page), { headers: { 'Accept-Encoding': encoding } }).then((r) => r.arrayBuffer());
      }
    }
  } finally {
    await server.stop();
  }
  return server.dir;
}

/** A copy of a data folder (each case damages its own). */
function copyOf(dir: string): string {
  const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'study-site-test-'));
  fs.cpSync(dir, copy, { recursive: true });
  return copy;
}

function pageSizeOf(file: string): number {
  const db = new Database(file, { readonly: true });
  try {
    return db.pragma('page_size', { simple: true }) as number;
  } finally {
    db.close();
  }
}

function rootPageOf(file: string, name: string): number {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare('select rootpage from sqlite_master where name = ?').pluck().get(name) as number;
  } finally {
    db.close();
  }
}

function overwrite(file: string, at: number, bytes: Buffer): void {
  const fd = fs.openSync(file, 'r+');
  try {
    fs.writeSync(fd, bytes, 0, bytes.length, at);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Random bytes over every frame of the WAL that holds a page other than the first, with the frames'
 * checksums made right again: SQLite takes such a log as valid (it cannot tell), so only a check of
 * the content finds the damage. Returns how many frames were damaged.
 */
function damageWalFrames(wal: string): number {
  const bytes = fs.readFileSync(wal);
  const bigEndian = bytes.readUInt32BE(0) === 0x377f0683;
  const pageSize = bytes.readUInt32BE(8);
  const salt = bytes.subarray(16, 24);
  const word = (buffer: Buffer, at: number) => (bigEndian ? buffer.readUInt32BE(at) : buffer.readUInt32LE(at));
  const checksum = (data: Buffer, s: [number, number]): [number, number] => {
    let [s0, s1] = s;
    for (let i = 0; i < data.length; i += 8) {
      s0 = (s0 + word(data, i) + s1) >>> 0;
      s1 = (s1 + word(data, i + 4) + s0) >>> 0;
    }
    return [s0, s1];
  };
  // The log as written (to find where its valid frames end) and as rewritten.
  let written = checksum(bytes.subarray(0, 24), [0, 0]);
  expect(written).toEqual([bytes.readUInt32BE(24), bytes.readUInt32BE(28)]);
  let rewritten = written;
  let damaged = 0;
  for (let at = 32; at + 24 + pageSize <= bytes.length; at += 24 + pageSize) {
    const header = bytes.subarray(at, at + 24);
    const data = bytes.subarray(at + 24, at + 24 + pageSize);
    if (!header.subarray(8, 16).equals(salt)) break;
    written = checksum(data, checksum(header.subarray(0, 8), written));
    if (written[0] !== header.readUInt32BE(16) || written[1] !== header.readUInt32BE(20)) break;
    if (header.readUInt32BE(0) !== 1) {
      crypto.randomFillSync(data);
      damaged++;
    }
    rewritten = checksum(data, checksum(header.subarray(0, 8), rewritten));
    header.writeUInt32BE(rewritten[0], 16);
    header.writeUInt32BE(rewritten[1], 20);
  }
  fs.writeFileSync(wal, bytes);
  return damaged;
}

/** Starts two serving processes on a damaged folder and checks the site serves and said the right thing. */
async function expectStartsAndSetsAside(dir: string): Promise<void> {
  const storeDir = path.join(dir, 'pages');
  const server = await startServer({ dir, env: { WEB_PROCESSES: '2', TOP_VIEWED_REFRESH_SECONDS: '3600' } });
  try {
    for (const page of ['/', '/blogs', '/about']) {
      const answer = await fetch(server.url(page));
      expect(answer.status, page).toBe(200);
      expect(await answer.text()).toContain('</html>');
    }
    const aside = fs.readdirSync(storeDir).find((name) => name.startsWith(`${STORE}.corrupt-`) && !/-(wal|shm)$/.test(name));
    expect(aside, server.output()).toBeDefined();
    const output = server.output();
    expect(output).toContain(`moved it to ${path.join(storeDir, aside!)}`);
    expect(output).not.toContain(`${server.databasePath} is damaged`);
    expect(output).not.toContain('npm run restore');
    // The store is filled again: a page read twice is answered from it.
    await until(
      () => fetch(server.url('/contact')).then((r) => r.headers.get('x-page-store')),
      (state) => state === 'HIT',
      'the new store to answer a page',
      120_000,
    );
  } finally {
    await server.stop();
  }
}

describe('a damaged page store at start (two serving processes)', () => {
  let prepared = '';
  const folders: string[] = [];
  const folder = () => {
    const copy = copyOf(prepared);
    folders.push(copy);
    return copy;
  };

  beforeAll(async () => {
    prepared = await prerenderedFolder();
    folders.push(prepared);
  });

  afterAll(() => {
    for (const dir of folders) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('random bytes inside the file (its header intact): set aside, named, and the site serves', async () => {
    const dir = folder();
    const file = path.join(dir, 'pages', STORE);
    const pageSize = pageSizeOf(file);
    // Pages 2 to 17: the store's small tables and the first pages' rows.
    overwrite(file, pageSize, crypto.randomBytes(16 * pageSize));
    await expectStartsAndSetsAside(dir);
  });

  it('an index page of the store damaged: set aside, named, and the site serves', async () => {
    const dir = folder();
    const file = path.join(dir, 'pages', STORE);
    const root = rootPageOf(file, 'page_tags_by_key');
    expect(root).toBeGreaterThan(1);
    overwrite(file, (root - 1) * pageSizeOf(file), crypto.randomBytes(pageSizeOf(file)));
    await expectStartsAndSetsAside(dir);
  });

  it('a damaged WAL (its frames checksummed right) after a kill: set aside, named, and the site serves', async () => {
    const dir = folder();
    const storeDir = path.join(dir, 'pages');
    // A server killed mid-run leaves the store's WAL behind.
    const killed = await startServer({ dir, env: { TOP_VIEWED_REFRESH_SECONDS: '3600' } });
    for (const page of ['/', '/blogs', '/contact', '/about']) {
      await fetch(killed.url(page), { headers: { 'Accept-Encoding': 'br' } }).then((r) => r.arrayBuffer());
    }
    await until(
      async () => fs.statSync(path.join(storeDir, `${STORE}-wal`), { throwIfNoEntry: false })?.size ?? 0,
      (size) => size > 32,
      'the store to write its WAL',
    );
    await killServerHard(killed);
    // Without its crash marker, so the start cannot simply drop the files.
    for (const name of fs.readdirSync(storeDir)) if (name.startsWith('running-')) fs.rmSync(path.join(storeDir, name));
    fs.rmSync(path.join(storeDir, `${STORE}-shm`), { force: true });
    expect(damageWalFrames(path.join(storeDir, `${STORE}-wal`))).toBeGreaterThan(0);
    await expectStartsAndSetsAside(dir);
  });
});

/** A small tmpfs: a real full disk. Needs root; otherwise the test says why it is skipped. */
function mountTinyDisk(): { dir: string } | { reason: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'study-site-db-disk-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=24m', 'tmpfs', dir], { stdio: 'pipe' });
    return { dir };
  } catch (error) {
    fs.rmSync(dir, { recursive: true, force: true });
    return {
      reason: `cannot mount a tmpfs here (${String((error as Error).message).split('\n')[0]}); run as root to test a full disk`,
    };
  }
}

/** Writes a file until the disk refuses more. */
function fillDisk(file: string): void {
  const fd = fs.openSync(file, 'w');
  try {
    for (const chunk of [1024 * 1024, 4096, 512]) {
      const bytes = Buffer.alloc(chunk, 1);
      for (;;) {
        try {
          fs.writeSync(fd, bytes);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'ENOSPC') break;
          throw error;
        }
      }
    }
  } finally {
    fs.closeSync(fd);
  }
}

const tinyDisk = mountTinyDisk();

// At the file's level: a run that filters the disk's tests out still unmounts it.
afterAll(() => {
  if (!('dir' in tinyDisk)) return;
  execFileSync('umount', [tinyDisk.dir]);
  fs.rmSync(tinyDisk.dir, { recursive: true, force: true });
});

describe('the database on a full disk', () => {
  let server: TestServer;
  const diskDir = 'dir' in tinyDisk ? tinyDisk.dir : '';
  const databasePath = path.join(diskDir, 'site.sqlite');

  beforeAll(async () => {
    if (!diskDir) return;
    server = await startServer({
      env: { DATABASE_PATH: databasePath, SEED_DEMO: 'false', TOP_VIEWED_REFRESH_SECONDS: '3600', WEB_PROCESSES: '2' },
    });
  });

  afterAll(async () => {
    await server?.stop();
  });

  /** /healthz as each of the two serving processes answers it (a connection of its own each). */
  const healthOfEachProcess = async () => {
    const seen = new Map<string, FreshAnswer>();
    while (seen.size < 2) {
      const answer = await onFreshConnection(server.origin, '/healthz');
      seen.set(answer.process!, answer);
    }
    return [...seen.values()];
  };

  const count = (table: 'comments' | 'blogs') => {
    const db = new Database(databasePath, { readonly: true });
    try {
      return db.prepare(`select count(*) from ${table}`).pluck().get() as number;
    } finally {
      db.close();
    }
  };

  it.skipIf(!diskDir)(
    `answers writes 507 storage_full with nothing saved, /healthz says "disk full", and both recover${'reason' in tinyDisk ? ` (skipped: ${tinyDisk.reason})` : ''}`,
    async () => {
      const auth = bearer(await loginAsAdmin(server));
      const category = (await sendJson(server, 'POST', '/api/categories', buildCategory(), auth)).body as Json;
      const created = await sendJson(server, 'POST', '/api/blogs', buildBlogBody(category.id as number), auth);
      expect(created.status).toBe(201);
      const blogId = (created.body as Json).id as number;
      expect((await call(server, '/healthz')).status).toBe(200);

      // Every log empty, so the next write needs new room on the disk; then no room is left.
      for (const file of [databasePath, databasePath.replace(/\.sqlite$/, '-limits.sqlite')]) {
        const db = new Database(file);
        db.pragma('wal_checkpoint(TRUNCATE)');
        db.close();
      }
      const filler = path.join(diskDir, 'filler');
      fillDisk(filler);

      const commentsBefore = count('comments');
      const blogsBefore = count('blogs');
      const comment = await sendJson(
        server,
        'POST',
        `/api/blogs/${blogId}/comment`,
        buildCommentBody({ comment: uniqueName('On a full disk') }),
      );
      expect(comment.status, comment.text).toBe(507);
      expect(comment.body).toEqual({
        error: 'storage_full',
        message: "The server's disk is full, so nothing was saved. Please try again later.",
      });
      const blog = await sendJson(server, 'POST', '/api/blogs', buildBlogBody(category.id as number), auth);
      expect(blog.status, blog.text).toBe(507);
      expect((blog.body as Json).error).toBe('storage_full');
      expect(count('comments')).toBe(commentsBefore);
      expect(count('blogs')).toBe(blogsBefore);

      // Whichever process answers, although the writes failed on one only.
      for (const health of await healthOfEachProcess()) {
        expect(health.status, `process ${health.process}`).toBe(503);
        expect(JSON.parse(health.body)).toEqual({ status: 'failing', database: 'disk full', store: 'ok' });
        // Fixed words only: no SQLite message, code or path reaches whoever asks.
        expect(health.body).not.toMatch(/SQLITE|sqlite|full\)|\//);
      }

      fs.rmSync(filler);
      await until(
        healthOfEachProcess,
        (answers) => answers.every((answer) => answer.status === 200),
        '/healthz of every process to see writes work again',
      );
      const again = await sendJson(
        server,
        'POST',
        `/api/blogs/${blogId}/comment`,
        buildCommentBody({ comment: uniqueName('After space was freed') }),
      );
      expect([201, 202], again.text).toContain(again.status);
      expect(count('comments')).toBe(commentsBefore + 1);
    },
  );
});
