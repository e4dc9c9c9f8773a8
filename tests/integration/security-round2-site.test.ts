import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server.ts';
import { loginAsAdmin, type Session } from '../support/auth.ts';
import { until } from '../support/wait.ts';

/**
 * Security review, round 2, against the real built server: view counts that cannot be inflated,
 * the Host check (stored pages included) and the Origin check against PUBLIC_ORIGIN only, a full
 * uploads disk (507, nothing written), damaged SQLite files at start, and the warning about
 * X-Forwarded-For without TRUST_PROXY.
 */

interface RawAnswer {
  status: number;
  type: string;
  text: string;
}

/** A request with a Host header of our choosing (fetch always sends the URL's own). */
function requestWithHost(
  server: TestServer,
  options: { path: string; host: string; method?: string; headers?: Record<string, string> },
): Promise<RawAnswer> {
  const url = new URL(server.origin);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: options.path,
        method: options.method ?? 'GET',
        headers: { ...options.headers, Host: options.host },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            type: String(res.headers['content-type'] ?? ''),
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

function rawRequestLine(server: TestServer, requestLine: string, host: string): Promise<string> {
  const url = new URL(server.origin);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(url.port), url.hostname);
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString('latin1')));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
    socket.write(`${requestLine}\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
  });
}

describe('view counts', () => {
  let server: TestServer;
  let blogId: number;

  beforeAll(async () => {
    server = await startServer({ env: { TRUST_PROXY: 'true' } });
    const list = (await (await fetch(server.url('/api/blogs?limit=1'))).json()) as
      | Array<{ id: number }>
      | { blogs: Array<{ id: number }> };
    blogId = (Array.isArray(list) ? list : list.blogs)[0]!.id;
  });

  afterAll(async () => {
    await server?.stop();
  });

  const clicksOf = async () => ((await (await fetch(server.url(`/api/blogs/${blogId}`))).json()) as { clicks: number }).clicks;
  const click = (address: string) =>
    fetch(server.url(`/api/blogs/${blogId}/click`), { method: 'PUT', headers: { 'X-Forwarded-For': address } }).then(
      async (r) => {
        await r.arrayBuffer();
        return r.status;
      },
    );

  it('count one view per address and article however often it clicks, and each address once', async () => {
    const before = await clicksOf();
    const statuses = await Promise.all(Array.from({ length: 50 }, () => click('198.51.100.1')));
    expect(new Set(statuses)).toEqual(new Set([204]));
    expect(await until(clicksOf, (n) => n > before, 'the first view to be written')).toBe(before + 1);

    expect(await click('198.51.100.2')).toBe(204);
    for (let i = 0; i < 10; i++) expect(await click('198.51.100.1')).toBe(204);
    // Written together with anything the first address might still have had pending.
    expect(await until(clicksOf, (n) => n >= before + 2, 'the second address to be written')).toBe(before + 2);
  });

  it('write the views still pending when the server stops', async () => {
    const before = await clicksOf();
    expect(await click('198.51.100.3')).toBe(204);
    await server.stop();
    const db = new Database(server.databasePath, { readonly: true });
    try {
      expect((db.prepare('select clicks from blogs where id = ?').get(blogId) as { clicks: number }).clicks).toBe(before + 1);
    } finally {
      db.close();
    }
  });
});

describe('the Host and Origin checks', () => {
  let server: TestServer;
  let port: string;
  let admin: Session;

  beforeAll(async () => {
    server = await startServer();
    port = new URL(server.origin).port;
    admin = await loginAsAdmin(server);
    // The article page is a stored page from here on: the front server answers it before Astro.
    await fetch(server.url('/blog/1')).then((r) => r.arrayBuffer());
  });

  afterAll(async () => {
    await server?.stop();
  });

  it('answer 421 with a short plain body to a Host that is not ours, on every kind of path', async () => {
    for (const host of [
      'evil.example',
      `evil.example:${port}`,
      `rebound.attacker.test:${port}`,
      `127.0.0.1.evil.example:${port}`,
    ]) {
      for (const p of [
        '/',
        '/blog/1',
        '/blogs',
        '/api/categories',
        '/api/users/me',
        '/favicon.svg',
        '/uploads/images/x.webp',
        '/login',
        '/no-such-page',
      ]) {
        const answer = await requestWithHost(server, { path: p, host });
        expect(answer.status, `${host} ${p}`).toBe(421);
        expect(answer.type).toMatch(/^text\/plain/);
        expect(answer.text.length).toBeLessThan(200);
      }
      const write = await requestWithHost(server, {
        path: '/api/users/login',
        host,
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
      });
      expect(write.status).toBe(421);
    }
  });

  it('answer our own names: the public origin, and localhost with the port on a loopback start', async () => {
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST:${port}`]) {
      expect((await requestWithHost(server, { path: '/blog/1', host })).status, host).toBe(200);
      expect((await requestWithHost(server, { path: '/api/categories', host })).status, host).toBe(200);
    }
  });

  it('judge an absolute-form request target by its own host', async () => {
    const refused = await rawRequestLine(server, 'GET http://evil.example/ HTTP/1.1', `127.0.0.1:${port}`);
    expect(refused).toMatch(/^HTTP\/1\.1 421 /);
    const ours = await rawRequestLine(server, `GET http://127.0.0.1:${port}/ HTTP/1.1`, `127.0.0.1:${port}`);
    expect(ours).toMatch(/^HTTP\/1\.1 200 /);
  });

  it('leave /healthz to answer under any name', async () => {
    expect((await requestWithHost(server, { path: '/healthz', host: 'evil.example' })).status).not.toBe(421);
  });

  it('compare a cookie write’s Origin with PUBLIC_ORIGIN only, never with the Host the request names', async () => {
    const remove = (host: string, origin: string) =>
      requestWithHost(server, {
        path: '/api/blogs/comment/999999',
        host,
        method: 'DELETE',
        headers: { Cookie: admin.cookie, Origin: origin },
      });
    // localhost is a name this server answers to, but its origin is not PUBLIC_ORIGIN.
    expect((await remove(`localhost:${port}`, `http://localhost:${port}`)).status).toBe(403);
    expect((await remove(`127.0.0.1:${port}`, server.origin)).status).toBe(404);
  });

  it('warn once, in the log, when X-Forwarded-For arrives with TRUST_PROXY off', async () => {
    for (let i = 0; i < 3; i++) {
      const answer = await fetch(server.url('/api/users/login'), {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': `192.0.2.${i}` },
        body: '{}',
      });
      expect(answer.status).toBe(400);
      await answer.arrayBuffer();
    }
    await until(
      async () => server.output(),
      (out) => /X-Forwarded-For but TRUST_PROXY is off/.test(out),
      'the warning',
    );
    expect(server.output().match(/X-Forwarded-For but TRUST_PROXY is off/g)).toHaveLength(1);
  });
});

describe('with an explicit PUBLIC_ORIGIN', () => {
  let server: TestServer;
  let port: string;

  beforeAll(async () => {
    server = await startServer({ env: { PUBLIC_ORIGIN: 'https://site.example', SEED_DEMO: 'false' } });
    port = new URL(server.origin).port;
  });

  afterAll(async () => {
    await server?.stop();
  });

  it('answers its host (with or without the default port) and the address it was reached on, nothing else', async () => {
    for (const host of ['site.example', 'SITE.example:443', `127.0.0.1:${port}`])
      expect((await requestWithHost(server, { path: '/', host })).status, host).toBe(200);
    for (const host of ['site.example:8443', 'www.site.example', 'other.example', 'site.example.evil.test']) {
      expect((await requestWithHost(server, { path: '/', host })).status, host).toBe(421);
    }
  });
});

/** A 1 MiB tmpfs for the uploads folder: a real full disk. Needs root; otherwise the test says why it is skipped. */
function mountTinyDisk(): { dir: string } | { reason: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'study-site-full-disk-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', dir], { stdio: 'pipe' });
    return { dir };
  } catch (error) {
    fs.rmSync(dir, { recursive: true, force: true });
    return {
      reason: `cannot mount a tmpfs here (${String((error as Error).message).split('\n')[0]}); run as root to test a full disk`,
    };
  }
}

const tinyDisk = mountTinyDisk();

describe('a full uploads disk', () => {
  let server: TestServer;
  let admin: Session;
  const diskDir = 'dir' in tinyDisk ? tinyDisk.dir : '';

  beforeAll(async () => {
    if (!diskDir) return;
    server = await startServer({ env: { UPLOADS_DIR: diskDir, SEED_DEMO: 'false' } });
    admin = await loginAsAdmin(server);
  });

  afterAll(async () => {
    await server?.stop();
    if (diskDir) {
      execFileSync('umount', [diskDir]);
      fs.rmSync(diskDir, { recursive: true, force: true });
    }
  });

  const listFiles = (dir: string): string[] =>
    fs
      .readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
  const uploadPdf = (bytes: Buffer) => {
    const form = new FormData();
    form.append('pdfFile', new Blob([new Uint8Array(bytes)], { type: 'application/pdf' }), 'notes.pdf');
    return fetch(server.url('/api/blogs/upload-pdf-local'), {
      method: 'POST',
      headers: { Authorization: `Bearer ${admin.token}` },
      body: form,
    });
  };
  const pdf = (size: number) => Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(size)]);

  it.skipIf(!diskDir)(
    `answers 507 storage_full and leaves nothing behind${'reason' in tinyDisk ? ` (skipped: ${tinyDisk.reason})` : ''}`,
    async () => {
      const uploadsBefore = countUploads(server.databasePath);
      const answer = await uploadPdf(pdf(2 * 1024 * 1024));
      expect(answer.status).toBe(507);
      expect(await answer.json()).toEqual({
        error: 'storage_full',
        message: "The server's disk is full, so the file was not saved. Nothing was changed.",
      });
      expect(listFiles(diskDir)).toEqual([]);
      expect(countUploads(server.databasePath)).toBe(uploadsBefore);
      // A file that fits is still stored.
      const small = await uploadPdf(pdf(10 * 1024));
      expect(small.status).toBe(201);
      expect(listFiles(diskDir)).toHaveLength(1);
    },
  );
});

function countUploads(databasePath: string): number {
  const db = new Database(databasePath, { readonly: true });
  try {
    return (db.prepare('select count(*) as n from uploads').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

describe('damaged SQLite files at start', () => {
  it('a damaged page store is moved aside, logged with both paths, and the site starts with an empty store', async () => {
    // A data folder whose page store file is garbage (written before any server ran on it, so no
    // crash marker can have the start drop the file instead).
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'study-site-test-'));
    const storeFile = path.join(dir, 'pages', 'pages.sqlite');
    fs.mkdirSync(path.dirname(storeFile), { recursive: true });
    fs.writeFileSync(storeFile, Buffer.alloc(64 * 1024, 'not a database '));

    const second = await startServer({ dir });
    try {
      const home = await fetch(second.url('/'));
      expect(home.status).toBe(200);
      expect(await home.text()).toContain('</html>');
      const aside = fs.readdirSync(path.dirname(storeFile)).find((name) => name.startsWith('pages.sqlite.corrupt-'));
      expect(aside).toBeDefined();
      const line = second
        .output()
        .split('\n')
        .find((l) => l.includes(path.join(path.dirname(storeFile), aside!)));
      expect(line, second.output()).toBeDefined();
      expect(line).toContain(storeFile);
      expect(
        fs
          .readFileSync(path.join(path.dirname(storeFile), aside!))
          .subarray(0, 15)
          .toString(),
      ).toBe('not a database ');
    } finally {
      await second.stop();
    }
  });

  it('a damaged database stops the start with a message naming the file and npm run restore', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'study-site-test-'));
    const databasePath = path.join(dir, 'site.sqlite');
    fs.writeFileSync(databasePath, Buffer.alloc(64 * 1024, 'garbage garbage '));
    const failure = await startServer({ dir }).then(
      async (server) => {
        await server.stop();
        return null;
      },
      (error: unknown) => error as Error,
    );
    expect(failure).toBeInstanceOf(Error);
    expect(failure!.message).toMatch(/^Server exited with [1-9]/);
    expect(failure!.message).toContain(databasePath);
    expect(failure!.message).toContain('npm run restore');
  });
});
