// `npm run bench:load`: a bounded mixed load on loopback against the built server on a generated
// site (issue "Hardening", Load). Mostly readers (home, list pages, articles, downloads, assets,
// view counts), plus comments, admin edits and searches at fixed rates. Prints requests, errors
// and latency percentiles per kind and overall; exits 1 when any request failed.
//
// LOAD_ARTICLES (2000), LOAD_SECONDS (30), LOAD_CONNECTIONS (200), LOAD_WARMUP_SECONDS (3),
// LOAD_COMMENTS_PER_SECOND (10), LOAD_EDITS_PER_SECOND (1), LOAD_SEARCHES_PER_SECOND (20).
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { buildCommentBody } from '../tests/support/builders.ts';
import { makePdf } from '../tests/support/files.ts';
import { generateSite } from './generate-site.ts';
import { fetchWriteBodies, logInAdmin, requireBuild, rssMb, SERVER_MAIN, siteEnv, startProcess } from './site.ts';

function setting(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a non-negative number, got "${raw}"`);
  return value;
}

const ARTICLES = setting('LOAD_ARTICLES', 2000);
const SECONDS = setting('LOAD_SECONDS', 30);
const WARMUP_SECONDS = setting('LOAD_WARMUP_SECONDS', 3);
const CONNECTIONS = setting('LOAD_CONNECTIONS', 200);
const COMMENTS_PER_SECOND = setting('LOAD_COMMENTS_PER_SECOND', 10);
const EDITS_PER_SECOND = setting('LOAD_EDITS_PER_SECOND', 1);
const SEARCHES_PER_SECOND = setting('LOAD_SEARCHES_PER_SECOND', 20);
const CATEGORIES = 10;
const ADMIN = { email: 'load@example.com', password: 'load-password-123' };
const WORDS = ['study', 'notes', 'revision', 'exam', 'method', 'theory', 'practice', 'formula', 'diagram', 'summary'];

// ---------------------------------------------------------------------------------------------
// The server

let child: ChildProcess | undefined;

function startServer(env: Record<string, string>) {
  const started = startProcess([SERVER_MAIN], env, /Pre-rendered \d+ pages/);
  child = started.child;
  return started.started;
}

/** CPU seconds a process has used so far (user + system), from /proc. */
function cpuSeconds(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** A generated article's PDF: a page of notes, about 20 kB like a real handout. */
function notesPdf(n: number): Buffer {
  return makePdf(
    `Generated notes ${n}`,
    Array.from({ length: 240 }, (_, line) => `${line + 1}. ${WORDS.join(' ')}`),
  );
}

// ---------------------------------------------------------------------------------------------
// The client: plain keep-alive HTTP, one request in flight per connection.

let agent: http.Agent;
let target: URL;

interface Answer {
  status: number;
  bytes: number;
  body: string | null;
  /** X-Page-Store: HIT (answered from the store) or MISS/REFRESHED (rendered for this request). */
  store: string | undefined;
}

function send(
  method: string,
  pathname: string,
  headers: Record<string, string> = {},
  body?: string,
  keepBody = false,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        agent,
        host: target.hostname,
        port: target.port,
        method,
        path: pathname,
        headers: { 'accept-encoding': 'br, gzip', ...headers },
      },
      (response) => {
        let bytes = 0;
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          if (keepBody) chunks.push(chunk);
        });
        const store = response.headers['x-page-store'] as string | undefined;
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, bytes, body: keepBody ? Buffer.concat(chunks).toString() : null, store }),
        );
        response.on('error', reject);
      },
    );
    request.setTimeout(30_000, () => request.destroy(new Error('no answer in 30 s')));
    request.on('error', reject);
    request.end(body);
  });
}

// ---------------------------------------------------------------------------------------------
// What is measured

interface Kind {
  name: string;
  latencies: number[];
  bytes: number;
  /** Stored pages answered as they were, and ones rendered for the request. */
  hits: number;
  renders: number;
}

const kinds = new Map<string, Kind>();
const errors = new Map<string, { count: number; example: string }>();
let measuring = false;
let stopping = false;

function kind(name: string): Kind {
  let found = kinds.get(name);
  if (!found) {
    found = { name, latencies: [], bytes: 0, hits: 0, renders: 0 };
    kinds.set(name, found);
  }
  return found;
}

/** Runs one request and records it; a status other than the expected class is an error. */
async function measure(
  name: string,
  method: string,
  pathname: string,
  options: { headers?: Record<string, string>; body?: string; expect?: number; keepBody?: boolean } = {},
): Promise<Answer | null> {
  const started = performance.now();
  // Only requests sent inside the measured window count (the warm-up's first renders stay out).
  const counted = measuring;
  try {
    const answer = await send(method, pathname, options.headers, options.body, options.keepBody);
    const ok = options.expect ? answer.status === options.expect : answer.status >= 200 && answer.status < 400;
    if (counted) {
      const entry = kind(name);
      entry.latencies.push(performance.now() - started);
      entry.bytes += answer.bytes;
      if (answer.store === 'HIT') entry.hits++;
      else if (answer.store) entry.renders++;
      if (!ok) noteError(name, `HTTP ${answer.status}`, `${method} ${pathname}`);
    }
    return ok ? answer : null;
  } catch (error) {
    if (counted) noteError(name, (error as Error).message, `${method} ${pathname}`);
    return null;
  }
}

function noteError(name: string, what: string, example: string): void {
  const key = `${name}: ${what}`;
  const entry = errors.get(key) ?? { count: 0, example };
  entry.count++;
  errors.set(key, entry);
}

// ---------------------------------------------------------------------------------------------
// The mix

const pick = <T>(list: readonly T[]): T => list[Math.floor(Math.random() * list.length)]!;
const between = (low: number, high: number) => low + Math.floor(Math.random() * (high - low + 1));

let assets: string[] = [];
const pdfs: string[] = [];

/** Reader requests and their weights (out of 100). */
const READERS: Array<{ weight: number; run: () => Promise<unknown> }> = [
  { weight: 12, run: () => measure('home', 'GET', Math.random() < 0.7 ? '/' : `/?page=${between(2, 5)}`) },
  {
    weight: 15,
    run: () => {
      const roll = Math.random();
      const url =
        roll < 0.3 ? '/blogs' : roll < 0.7 ? `/blogs?category=${between(1, CATEGORIES)}` : `/blogs?page=${between(2, 30)}`;
      return measure('list page', 'GET', url);
    },
  },
  { weight: 48, run: () => measure('article', 'GET', `/blog/${between(1, ARTICLES)}`) },
  { weight: 10, run: () => measure('view count', 'PUT', `/api/blogs/${between(1, ARTICLES)}/click`) },
  { weight: 3, run: () => measure('download page', 'GET', '/download') },
  { weight: 6, run: () => measure('pdf download', 'GET', pick(pdfs)) },
  { weight: 5, run: () => measure('asset', 'GET', pick(assets)) },
  { weight: 1, run: () => measure('missing (404 expected)', 'GET', `/blog/${ARTICLES + between(1000, 9000)}`, { expect: 404 }) },
];
const TOTAL_WEIGHT = READERS.reduce((sum, r) => sum + r.weight, 0);

function pickReader(): () => Promise<unknown> {
  let roll = Math.random() * TOTAL_WEIGHT;
  for (const reader of READERS) {
    roll -= reader.weight;
    if (roll < 0) return reader.run;
  }
  return READERS[0]!.run;
}

async function readerLoop(): Promise<void> {
  while (!stopping) await pickReader()();
}

/** A worker that starts its task at a fixed rate (skipping ahead if the server fell behind). */
async function pacedLoop(perSecond: number, task: () => Promise<unknown>): Promise<void> {
  if (perSecond <= 0) return;
  const interval = 1000 / perSecond;
  let next = performance.now() + Math.random() * interval;
  while (!stopping) {
    const wait = next - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    if (stopping) break;
    await task();
    next = Math.max(next + interval, performance.now() - interval);
  }
}

let commentSerial = 0;
const answeredComments: string[] = [];
let editSerial = 0;
const lastTitles = new Map<number, string>();

async function postComment(): Promise<void> {
  const text = `load comment ${++commentSerial}`;
  const answer = await measure('comment', 'POST', `/api/blogs/${between(1, ARTICLES)}/comment`, {
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(buildCommentBody({ username: 'Load tester', comment: text })),
    expect: 201,
  });
  if (answer) answeredComments.push(text);
}

function editLoop(token: string, bodies: Map<number, Record<string, unknown>>) {
  const ids = [...bodies.keys()];
  return async () => {
    const id = pick(ids);
    const title = `Load edit ${++editSerial}`;
    const answer = await measure('admin edit', 'PUT', `/api/blogs/${id}`, {
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ ...bodies.get(id), title }),
    });
    if (answer) lastTitles.set(id, title);
  };
}

function search(): Promise<unknown> {
  const words = Math.random() < 0.5 ? pick(WORDS) : `${pick(WORDS)} ${pick(WORDS)}`;
  return Math.random() < 0.5
    ? measure('search page', 'GET', `/blogs?search=${encodeURIComponent(words)}`)
    : measure('search API', 'GET', `/api/blogs?search=${encodeURIComponent(words)}&limit=10`);
}

// ---------------------------------------------------------------------------------------------
// Report

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

function row(name: string, latencies: number[], seconds: number, failed: number): string {
  const sorted = Float64Array.from(latencies).sort();
  const cells = [50, 90, 99].map((p) => percentile(sorted, p).toFixed(1).padStart(7));
  return `  ${name.padEnd(24)} ${String(latencies.length).padStart(8)} ${(latencies.length / seconds).toFixed(0).padStart(7)} ${cells.join(' ')} ${(sorted.at(-1) ?? 0).toFixed(1).padStart(7)} ${String(failed).padStart(7)}`;
}

// ---------------------------------------------------------------------------------------------

async function main() {
  requireBuild();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'study-load-'));
  const databasePath = path.join(dir, 'site.sqlite');
  const uploadsDir = path.join(dir, 'uploads');
  console.log(`Generating ${ARTICLES} articles in ${CATEGORIES} categories...`);
  await generateSite(databasePath, {
    articles: ARTICLES,
    categories: CATEGORIES,
    adminEmail: ADMIN.email,
    adminPassword: ADMIN.password,
  });
  fs.mkdirSync(path.join(uploadsDir, 'pdfs'), { recursive: true });
  for (let i = 0; i < ARTICLES; i += 10) {
    fs.writeFileSync(path.join(uploadsDir, 'pdfs', `generated-${i}.pdf`), notesPdf(i));
    pdfs.push(`/uploads/pdfs/generated-${i}.pdf`);
  }

  console.log('Starting the server and pre-rendering every public page...');
  const site = await startServer({
    ...siteEnv(dir, databasePath, ADMIN),
    // Every comment comes from 127.0.0.1 here; the real limit is per reader's address.
    RATE_LIMIT_COMMENT_IP: '1000000',
    // The load posts comments as an API client, without the comment form's token.
    COMMENT_REQUIRE_FORM_TOKEN: 'false',
  });
  console.log(`  ${/Pre-rendered .*/.exec(site.output())?.[0]}`);
  target = new URL(site.origin);
  agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS, maxFreeSockets: CONNECTIONS });

  const home = await send('GET', '/', { 'accept-encoding': 'identity' }, undefined, true);
  assets = [...new Set([...home.body!.matchAll(/\/_astro\/[\w.-]+\.(?:css|js)/g)].map((m) => m[0]))];
  if (assets.length === 0) throw new Error('The home page names no /_astro/ assets');
  const token = await logInAdmin(site.origin, ADMIN);
  const bodies = await fetchWriteBodies(site.origin, [1, Math.floor(ARTICLES / 2), ARTICLES]);

  // Connections: a few paced writers and searchers, every other one a reader.
  const commentWorkers = COMMENTS_PER_SECOND > 0 ? 4 : 0;
  const searchWorkers = SEARCHES_PER_SECOND > 0 ? 4 : 0;
  const editWorkers = EDITS_PER_SECOND > 0 ? 1 : 0;
  const readers = CONNECTIONS - commentWorkers - searchWorkers - editWorkers;
  if (readers < 1) throw new Error('LOAD_CONNECTIONS is too small for the mix');
  console.log(
    `Load: ${CONNECTIONS} connections (${readers} readers; comments ${COMMENTS_PER_SECOND}/s, admin edits ${EDITS_PER_SECOND}/s, ` +
      `searches ${SEARCHES_PER_SECOND}/s), ${WARMUP_SECONDS} s warm-up, then ${SECONDS} s measured`,
  );
  const edit = editLoop(token, bodies);
  const loops = [
    ...Array.from({ length: readers }, () => readerLoop()),
    ...Array.from({ length: commentWorkers }, () => pacedLoop(COMMENTS_PER_SECOND / commentWorkers, postComment)),
    ...Array.from({ length: searchWorkers }, () => pacedLoop(SEARCHES_PER_SECOND / searchWorkers, search)),
    ...Array.from({ length: editWorkers }, () => pacedLoop(EDITS_PER_SECOND, edit)),
  ];
  await new Promise((resolve) => setTimeout(resolve, WARMUP_SECONDS * 1000));
  measuring = true;
  const started = performance.now();
  const serverCpuBefore = cpuSeconds(child!.pid!);
  const clientCpuBefore = process.cpuUsage();
  await new Promise((resolve) => setTimeout(resolve, SECONDS * 1000));
  measuring = false;
  const seconds = (performance.now() - started) / 1000;
  const serverCpu = (cpuSeconds(child!.pid!) - serverCpuBefore) / seconds;
  const clientUsage = process.cpuUsage(clientCpuBefore);
  const clientCpu = (clientUsage.user + clientUsage.system) / 1e6 / seconds;
  stopping = true;
  await Promise.all(loops);
  const rss = rssMb(child!.pid!);

  // The writes the run made are all there, and the last edits are live.
  const db = new SQLite(databasePath, { readonly: true });
  const storedTexts = new Set(
    (db.prepare("select comment from comments where comment like 'load comment %'").all() as Array<{ comment: string }>).map(
      (r) => r.comment,
    ),
  );
  db.close();
  const stored = storedTexts.size;
  const missingComments = answeredComments.filter((text) => !storedTexts.has(text)).length;
  const staleEdits: string[] = [];
  for (const [id, title] of lastTitles) {
    const page = await send('GET', `/blog/${id}`, { 'accept-encoding': 'identity' }, undefined, true);
    if (!page.body!.includes(title)) staleEdits.push(`/blog/${id} does not show "${title}"`);
  }

  const all = [...kinds.values()];
  const failedOf = (name: string) =>
    [...errors.entries()].filter(([key]) => key.startsWith(`${name}: `)).reduce((sum, [, e]) => sum + e.count, 0);
  const totalErrors = [...errors.values()].reduce((sum, e) => sum + e.count, 0);
  console.log(
    `\nResults: ${ARTICLES} articles, ${os.cpus().length} cores (server and load generator share them), Node ${process.version}`,
  );
  console.log(
    `  ${'kind'.padEnd(24)} ${'requests'.padStart(8)} ${'req/s'.padStart(7)} ${'p50 ms'.padStart(7)} ${'p90 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'max ms'.padStart(7)} ${'errors'.padStart(7)}`,
  );
  for (const entry of all.sort((a, b) => b.latencies.length - a.latencies.length))
    console.log(row(entry.name, entry.latencies, seconds, failedOf(entry.name)));
  console.log(
    row(
      'all',
      all.flatMap((entry) => entry.latencies),
      seconds,
      totalErrors,
    ),
  );
  const megabytes = all.reduce((sum, entry) => sum + entry.bytes, 0) / 1024 / 1024;
  console.log(`  ${megabytes.toFixed(0)} MiB received; server memory (RSS) at the end: ${rss.toFixed(0)} MB`);
  const storeKinds = all.filter((entry) => entry.hits + entry.renders > 0);
  console.log(
    `  page store: ${storeKinds.map((entry) => `${entry.name} ${((100 * entry.hits) / (entry.hits + entry.renders)).toFixed(1)}% HIT`).join(', ')}; ` +
      `${storeKinds.reduce((sum, entry) => sum + entry.renders, 0)} pages rendered for a reader`,
  );
  console.log(
    `  CPU: server ${(serverCpu * 100).toFixed(0)}% of a core, load generator ${(clientCpu * 100).toFixed(0)}% of a core`,
  );
  console.log(
    `  comments answered 201: ${answeredComments.length}, stored: ${stored}; admin edits live on their pages: ${lastTitles.size - staleEdits.length}/${lastTitles.size}`,
  );
  if (totalErrors === 0 && missingComments === 0 && staleEdits.length === 0) {
    console.log('\nErrors: 0');
  } else {
    console.log(`\nERRORS: ${totalErrors} failed requests`);
    for (const [key, entry] of errors) console.log(`  ${String(entry.count).padStart(6)} x ${key} (e.g. ${entry.example})`);
    if (missingComments) console.log(`  ${missingComments} answered comments are missing from the database`);
    for (const stale of staleEdits) console.log(`  ${stale}`);
    process.exitCode = 1;
  }
  agent.destroy();
  child!.kill('SIGTERM');
  await new Promise((resolve) => child!.once('exit', resolve));
  fs.rmSync(dir, { recursive: true, force: true });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
  if (child && child.exitCode === null) child.kill();
});
