// `npm run bench:search`: search on a generated site (SEARCH_BENCH_ARTICLES, default 10,000) over
// HTTP against the built server. Common words, prefixes and misspellings are sent interleaved,
// one at a time, and their p50/p95 printed per kind; then readers' latency is measured alone and
// with 8 connections searching at the same time.
//
// SEARCH_BENCH_ARTICLES (10000), SEARCH_BENCH_ROUNDS (60), SEARCH_BENCH_SECONDS (10).
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../src/server/db/client.ts';
import { insertBlog } from '../src/server/db/repositories/blogs.ts';
import { buildBlogWrite } from '../tests/support/builders.ts';
import { generateSite } from './generate-site.ts';
import { requireBuild, SERVER_MAIN, siteEnv, startProcess } from './site.ts';

const ARTICLES = Number(process.env.SEARCH_BENCH_ARTICLES || 10_000);
const ROUNDS = Number(process.env.SEARCH_BENCH_ROUNDS || 60);
const SECONDS = Number(process.env.SEARCH_BENCH_SECONDS || 10);
const ADMIN = { email: 'bench@example.com', password: 'bench-password-123' };

const QUERIES: Record<string, string[]> = {
  common: ['study', 'notes', 'exam method', 'theory practice', 'summary'],
  prefix: ['stu', 'rev', 'th', 'pra', 'ex'],
  misspelled: ['photosynthsis', 'thermodinamics', 'pythagorus', 'revison notse', 'formulla'],
};

const READER_PATHS = ['/', '/blogs', '/blogs?page=2', '/download', ...Array.from({ length: 20 }, (_, i) => `/blog/${i + 1}`)];

function stopServer(process: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (process.exitCode !== null) return resolve();
    process.once('exit', () => resolve());
    process.kill('SIGTERM');
  });
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
let target: URL;
// A 5xx in the figures is a fault to explain, not noise: the server's own log is printed after them.
let serverFaults = 0;

function get(pathname: string): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const request = http.get({ agent, host: target.hostname, port: target.port, path: pathname }, (response) => {
      response.resume();
      response.on('end', () => {
        const status = response.statusCode ?? 0;
        if (status >= 500 && status !== 503) serverFaults++;
        resolve({ status, ms: performance.now() - started });
      });
    });
    request.setTimeout(30_000, () => request.destroy(new Error('no answer in 30 s')));
    request.on('error', reject);
  });
}

function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

const fmt = (ms: number) => `${ms.toFixed(1)} ms`;
const searchPath = (text: string, page = 1) => `/blogs?search=${encodeURIComponent(text)}${page > 1 ? `&page=${page}` : ''}`;

async function measureSearchKinds(): Promise<void> {
  const latencies: Record<string, number[]> = { common: [], prefix: [], misspelled: [] };
  const statuses = new Map<number, number>();
  for (let round = 0; round < ROUNDS; round++) {
    for (const [kind, texts] of Object.entries(QUERIES)) {
      const text = texts[round % texts.length]!;
      // Deep pages too: page N of a word in every article.
      const { status, ms } = await get(searchPath(text, round % 3 === 2 ? 1 + (round % 50) : 1));
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      if (round >= 3) latencies[kind]!.push(ms);
    }
  }
  console.log(
    `\nSearch latency over HTTP, ${ARTICLES.toLocaleString('en-US')} articles, one at a time (${ROUNDS} rounds, interleaved):`,
  );
  for (const [kind, values] of Object.entries(latencies)) {
    console.log(
      `  ${kind.padEnd(11)} p50 ${fmt(percentile(values, 50)).padStart(9)}   p95 ${fmt(percentile(values, 95)).padStart(9)}   max ${fmt(Math.max(...values))}`,
    );
  }
  console.log(`  statuses: ${[...statuses].map(([s, n]) => `${s}×${n}`).join(', ')}`);
}

async function readersFor(seconds: number, withSearchers: number) {
  const readers: number[] = [];
  const searches: number[] = [];
  const searchStatuses = new Map<number, number>();
  const until = performance.now() + seconds * 1000;
  const readerLoop = async (offset: number) => {
    for (let i = offset; performance.now() < until; i++) {
      const { status, ms } = await get(READER_PATHS[i % READER_PATHS.length]!);
      if (status !== 200) throw new Error(`reader page answered ${status}`);
      readers.push(ms);
    }
  };
  const searchLoop = async (offset: number) => {
    const all = [...QUERIES.common!, ...QUERIES.prefix!, ...QUERIES.misspelled!];
    for (let i = offset; performance.now() < until; i++) {
      const { status, ms } = await get(searchPath(all[i % all.length]!, 1 + (i % 7)));
      searchStatuses.set(status, (searchStatuses.get(status) ?? 0) + 1);
      searches.push(ms);
    }
  };
  await Promise.all([
    ...Array.from({ length: 4 }, (_, i) => readerLoop(i * 5)),
    ...Array.from({ length: withSearchers }, (_, i) => searchLoop(i * 3)),
  ]);
  return { readers, searches, searchStatuses };
}

async function measureReaders(): Promise<void> {
  console.log(`\nReaders (4 connections, ${SECONDS} s each run):`);
  const alone = await readersFor(SECONDS, 0);
  console.log(
    `  alone:                 p50 ${fmt(percentile(alone.readers, 50))}   p95 ${fmt(percentile(alone.readers, 95))}   (${alone.readers.length} pages)`,
  );
  const busy = await readersFor(SECONDS, 8);
  console.log(
    `  with 8 searching:      p50 ${fmt(percentile(busy.readers, 50))}   p95 ${fmt(percentile(busy.readers, 95))}   (${busy.readers.length} pages)`,
  );
  console.log(
    `  searches meanwhile:    p50 ${fmt(percentile(busy.searches, 50))}   p95 ${fmt(percentile(busy.searches, 95))}   (${busy.searches.length} searches; ${[...busy.searchStatuses].map(([s, n]) => `${s}×${n}`).join(', ')})`,
  );
}

let child: ChildProcess | undefined;

async function main(): Promise<void> {
  requireBuild();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-search-'));
  const databasePath = path.join(dir, 'site.sqlite');
  try {
    let started = performance.now();
    await generateSite(databasePath, {
      articles: ARTICLES,
      categories: 10,
      adminEmail: ADMIN.email,
      adminPassword: ADMIN.password,
    });
    const { db, sqlite } = openDatabase(databasePath);
    for (const [title, text] of [
      ['How plants eat', 'Photosynthesis turns light into sugar.'],
      ['Heat and work', 'The laws of thermodynamics.'],
      ['Right triangles', 'Pythagoras and the squares of the sides.'],
    ] as const) {
      await insertBlog(db, buildBlogWrite({ title }), text);
    }
    await db.destroy();
    sqlite.close?.();
    console.log(
      `Generated ${ARTICLES.toLocaleString('en-US')} articles in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    started = performance.now();
    const env = { ...siteEnv(dir, databasePath, ADMIN), RATE_LIMIT_SEARCH_IP: '1000000' };
    // A full pre-render of 10,000 articles takes minutes and would run under the measurements: the
    // first start stores the pages readers ask for, and the second start (store not empty) skips it.
    const first = startProcess([SERVER_MAIN], env, /listening on/);
    child = first.child;
    target = new URL((await first.started).origin);
    for (const pathname of READER_PATHS) await get(pathname);
    await stopServer(first.child);
    const server = startProcess([SERVER_MAIN], env, /listening on/);
    child = server.child;
    target = new URL((await server.started).origin);
    for (const pathname of READER_PATHS) await get(pathname);
    console.log(`Server ready in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    // Other work on the machine skews every figure: say how busy it was.
    console.log(`Load average (1 min) at the start: ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores`);
    await measureSearchKinds();
    await measureReaders();
    console.log(`Load average (1 min) at the end: ${os.loadavg()[0]!.toFixed(1)}`);
    if (serverFaults > 0) {
      const log = (await server.started).output().split('\n');
      console.log(
        `\n${serverFaults} answers were server errors; the server's log (last 60 lines):\n${log.slice(-60).join('\n')}`,
      );
    }
  } finally {
    child?.kill('SIGTERM');
    agent.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
