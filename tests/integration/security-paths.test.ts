import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server.ts';

/**
 * Path traversal (issue 6, "Paths"): /uploads, /_astro, the root static files and every route
 * Astro answers, asked for files outside their folders in every spelling (encoded,
 * double-encoded, overlong UTF-8, `....//`, backslashes, NUL, absolute). Every answer is a 404
 * (or, under /api, the JSON 400 of a malformed id or 405 of a route without GET), never a 500,
 * and no answer carries a byte of
 * the files aimed at: the server's own database, the project's package.json, the built server
 * entry, /etc/passwd.
 */

let server: TestServer;
/** Over a thousand requests in one test: room for a loaded machine (a guard against a hang, not a budget). */
const MANY_REQUESTS_TIMEOUT_MS = 10 * 60_000;
const FEW_REQUESTS_TIMEOUT_MS = 10 * 60_000;
const root = path.resolve(import.meta.dirname, '../..');
const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });

interface Target {
  /** Absolute path of the file aimed at. */
  file: string;
  /** Text that would show the file leaked. */
  marker: string;
}

let targets: Target[];

/** Sends the path exactly as written: no URL normalization on the way. */
function rawGet(rawPath: string): Promise<{ status: number; type: string; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const url = new URL(server.origin);
    const request = http.request({ host: url.hostname, port: url.port, path: rawPath, method: 'GET', agent }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          type: String(response.headers['content-type'] ?? ''),
          body: Buffer.concat(chunks),
        }),
      );
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end();
  });
}

/** A whole request line written to the socket by hand, for request targets http.request refuses. */
function rawRequestLine(target: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const url = new URL(server.origin);
    const socket = net.connect(Number(url.port), url.hostname);
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString('latin1')));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
    socket.setTimeout(120_000, () => socket.destroy(new Error(`no answer to ${target}`)));
    socket.write(`GET ${target} HTTP/1.1\r\nHost: ${url.host}\r\nConnection: close\r\n\r\n`);
  });
}

/** Ways to climb out of a folder, each followed by the target's path below the file system root. */
const CLIMBS: Array<(depth: number) => string> = [
  (d) => '../'.repeat(d),
  (d) => '..%2f'.repeat(d),
  (d) => '..%2F'.repeat(d),
  (d) => '%2e%2e%2f'.repeat(d),
  (d) => '%2e%2e/'.repeat(d),
  (d) => '.%2e/'.repeat(d),
  (d) => '%2e./'.repeat(d),
  (d) => '..%252f'.repeat(d),
  (d) => '%252e%252e%252f'.repeat(d),
  (d) => '....//'.repeat(d),
  (d) => '..././'.repeat(d),
  (d) => '..\\'.repeat(d),
  (d) => '..%5c'.repeat(d),
  (d) => '..%255c'.repeat(d),
  (d) => '%c0%ae%c0%ae/'.repeat(d),
  (d) => '%c0%ae%c0%ae%c0%af'.repeat(d),
  (d) => '..%c0%af'.repeat(d),
  (d) => '%uff0e%uff0e/'.repeat(d),
  (d) => '..;/'.repeat(d),
  (d) => 'x/../'.repeat(1) + '../'.repeat(d),
  (d) => '..%00/'.repeat(d),
  (d) => '/'.repeat(2) + '../'.repeat(d),
];

/** Where requests land: the file-serving prefixes and the routes Astro answers. */
const PREFIXES = [
  '/uploads/',
  '/uploads/images/',
  '/uploads/pdfs/',
  '/_astro/',
  '/',
  '/blog/',
  '/blogs/',
  '/download/',
  '/api/',
  '/api/blogs/',
  '/api/blogs/comment/',
  '/api/categories/',
  '/api/carousel/',
  '/api/users/',
];

function expectNoLeak(answer: { status: number; type: string; body: Buffer }, requested: string): void {
  const text = answer.body.toString('latin1');
  for (const target of targets) expect(text.includes(target.marker), `${requested} leaked ${target.file}`).toBe(false);
}

function expectRefused(answer: { status: number; type: string }, requested: string): void {
  // An /api id route reads `..%2f..` as a malformed id (400), or takes no GET at all (405), with
  // the JSON error body. (A literal `/api/../..` is normalized away from /api: the 404 page.)
  const allowed = requested.startsWith('/api/') ? [400, 404, 405] : [404];
  expect(allowed, `${requested} answered ${answer.status}`).toContain(answer.status);
  if (answer.status !== 404) expect(answer.type, requested).toMatch(/^application\/json/);
}

beforeAll(async () => {
  server = await startServer();
  const entry = path.join(
    process.env.DIST_DIR ? path.resolve(root, process.env.DIST_DIR) : path.join(root, 'dist'),
    'server/entry.mjs',
  );
  targets = [
    { file: server.databasePath, marker: 'SQLite format 3' },
    { file: path.join(root, 'package.json'), marker: '"name": "study-site"' },
    { file: entry, marker: fs.readFileSync(entry, 'utf8').slice(0, 60) },
    { file: '/etc/passwd', marker: 'root:x:0:0' },
  ];
  // The markers are real: reading the files directly finds them.
  for (const target of targets) expect(fs.readFileSync(target.file).toString('latin1')).toContain(target.marker);
});

afterAll(async () => {
  agent.destroy();
  await server?.stop();
});

describe('traversal', () => {
  it(
    'a file next to the uploads folder (the database) is never reached from /uploads',
    { timeout: FEW_REQUESTS_TIMEOUT_MS },
    async () => {
      // UPLOADS_DIR is <dir>/uploads and the database <dir>/site.sqlite: one level up.
      const name = path.basename(server.databasePath);
      const requests = CLIMBS.flatMap((climb) => [
        `/uploads/${climb(1)}${name}`,
        `/uploads/images/${climb(2)}${name}`,
        `/uploads/${climb(1)}${name}%00.webp`,
      ]);
      for (const requested of requests) {
        const answer = await rawGet(requested);
        expectRefused(answer, requested);
        expectNoLeak(answer, requested);
      }
    },
  );

  it('every prefix and route, every spelling, every target: 404 and no leak', { timeout: MANY_REQUESTS_TIMEOUT_MS }, async () => {
    const requests: string[] = [];
    for (const prefix of PREFIXES) {
      for (const climb of CLIMBS) {
        for (const target of targets) requests.push(`${prefix}${climb(12)}${target.file.slice(1)}`);
      }
    }
    // Absolute paths after the prefix, plain and encoded.
    for (const prefix of PREFIXES) {
      for (const target of targets) {
        requests.push(
          `${prefix}${target.file}`,
          `${prefix}${encodeURIComponent(target.file)}`,
          `${prefix}${encodeURIComponent(encodeURIComponent(target.file))}`,
        );
      }
    }
    expect(requests.length).toBeGreaterThan(1000);
    const statuses = new Map<number, number>();
    // Eight at a time, like a scanner would.
    for (let at = 0; at < requests.length; at += 8) {
      await Promise.all(
        requests.slice(at, at + 8).map(async (requested) => {
          const answer = await rawGet(requested);
          statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
          expectRefused(answer, requested);
          expectNoLeak(answer, requested);
        }),
      );
    }
    expect(
      [...statuses.keys()].every((status) => [400, 404, 405].includes(status)),
      JSON.stringify([...statuses]),
    ).toBe(true);
  });

  it('the root static files only serve names from the public folder', { timeout: FEW_REQUESTS_TIMEOUT_MS }, async () => {
    for (const requested of [
      '/favicon.svg%00.txt',
      '/..%2fpackage.json',
      '/.%2e%2fpackage.json',
      '/%2e%2e%2fpackage.json',
      '/.env',
      '/.git/config',
      '/favicon.svg/..%2f..%2fpackage.json',
      '/robots.txt%00.png',
      '/%5c..%5cpackage.json',
    ]) {
      const answer = await rawGet(requested);
      expectRefused(answer, requested);
      expectNoLeak(answer, requested);
    }
    // The real ones still work.
    expect((await rawGet('/favicon.svg')).status).toBe(200);
  });

  it('hidden and dot files under the served folders are never served', { timeout: FEW_REQUESTS_TIMEOUT_MS }, async () => {
    fs.mkdirSync(server.uploadsDir, { recursive: true });
    fs.writeFileSync(path.join(server.uploadsDir, '.secret'), 'HIDDEN-UPLOAD-MARKER');
    for (const requested of ['/uploads/.secret', '/uploads/%2esecret', '/uploads/images/..%2f.secret', '/uploads/./.secret']) {
      const answer = await rawGet(requested);
      expect(answer.status, requested).toBe(404);
      expect(answer.body.toString('latin1')).not.toContain('HIDDEN-UPLOAD-MARKER');
    }
  });

  it('odd request targets get an error, never a file', { timeout: FEW_REQUESTS_TIMEOUT_MS }, async () => {
    for (const target of [
      '../../../../etc/passwd',
      '..%2f..%2fetc%2fpasswd',
      '\\..\\..\\etc\\passwd',
      '//etc/passwd',
      '/uploads/\\..\\site.sqlite',
      '*',
      'http://127.0.0.1/../../etc/passwd',
    ]) {
      const answer = await rawRequestLine(target);
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0);
      expect(status >= 400 && status < 500, `${target} answered: ${answer.slice(0, 80)}`).toBe(true);
      for (const file of targets) expect(answer.includes(file.marker), `${target} leaked ${file.file}`).toBe(false);
    }
    // The server is still fine.
    expect((await rawGet('/')).status).toBe(200);
  });
});
