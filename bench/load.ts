// `npm run bench:load`: a bounded mixed load on loopback against the built server on a generated
// site (issue "Hardening", Load). Mostly readers (home, list pages, articles, downloads, assets,
// view counts), plus comments, admin edits and searches at fixed rates. Prints requests, errors
// and latency percentiles per kind and overall; exits 1 when any request failed.
//
// LOAD_ARTICLES (2000), LOAD_SECONDS (30), LOAD_CONNECTIONS (200), LOAD_WARMUP_SECONDS (3),
// LOAD_COMMENTS_PER_SECOND (10), LOAD_EDITS_PER_SECOND (1), LOAD_SEARCHES_PER_SECOND (20).
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { makePdf } from '../tests/support/files.ts';
import { generateSite } from './generate-site.ts';
import { fetchWriteBodies, logInAdmin, requireBuild, rssMb, SERVER_MAIN, siteEnv, startProcess } from './site.ts';
import { LoadMix, WORDS } from './load-mix.ts';
import { LoadRecorder } from './load-recorder.ts';

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
  const pdfs: string[] = [];
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
  const recorder = new LoadRecorder(site.origin, CONNECTIONS);

  const home = await recorder.send('GET', '/', { 'accept-encoding': 'identity' }, undefined, true);
  const assets = [...new Set([...home.body!.matchAll(/\/_astro\/[\w.-]+\.(?:css|js)/g)].map((m) => m[0]))];
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
  const mix = new LoadMix(recorder, { articles: ARTICLES, categories: CATEGORIES, assets, pdfs });
  const edit = mix.editLoop(token, bodies);
  const loops = [
    ...Array.from({ length: readers }, () => mix.readerLoop()),
    ...Array.from({ length: commentWorkers }, () => mix.pacedLoop(COMMENTS_PER_SECOND / commentWorkers, mix.postComment)),
    ...Array.from({ length: searchWorkers }, () => mix.pacedLoop(SEARCHES_PER_SECOND / searchWorkers, mix.search)),
    ...Array.from({ length: editWorkers }, () => mix.pacedLoop(EDITS_PER_SECOND, edit)),
  ];
  await new Promise((resolve) => setTimeout(resolve, WARMUP_SECONDS * 1000));
  recorder.measuring = true;
  const started = performance.now();
  const serverCpuBefore = cpuSeconds(child!.pid!);
  const clientCpuBefore = process.cpuUsage();
  await new Promise((resolve) => setTimeout(resolve, SECONDS * 1000));
  recorder.measuring = false;
  const seconds = (performance.now() - started) / 1000;
  const serverCpu = (cpuSeconds(child!.pid!) - serverCpuBefore) / seconds;
  const clientUsage = process.cpuUsage(clientCpuBefore);
  const clientCpu = (clientUsage.user + clientUsage.system) / 1e6 / seconds;
  mix.stopping = true;
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
  const missingComments = mix.answeredComments.filter((text) => !storedTexts.has(text)).length;
  const staleEdits: string[] = [];
  for (const [id, title] of mix.lastTitles) {
    const page = await recorder.send('GET', `/blog/${id}`, { 'accept-encoding': 'identity' }, undefined, true);
    if (!page.body!.includes(title)) staleEdits.push(`/blog/${id} does not show "${title}"`);
  }

  // Busiest first, as in the table.
  const all = [...recorder.kinds.values()].sort((a, b) => b.latencies.length - a.latencies.length);
  const totalErrors = recorder.totalErrors;
  console.log(
    `\nResults: ${ARTICLES} articles, ${os.cpus().length} cores (server and load generator share them), Node ${process.version}`,
  );
  recorder.printTable(seconds);
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
    `  comments answered 201: ${mix.answeredComments.length}, stored: ${stored}; admin edits live on their pages: ${mix.lastTitles.size - staleEdits.length}/${mix.lastTitles.size}`,
  );
  if (totalErrors === 0 && missingComments === 0 && staleEdits.length === 0) {
    console.log('\nErrors: 0');
  } else {
    console.log(`\nERRORS: ${totalErrors} failed requests`);
    for (const [key, entry] of recorder.errors)
      console.log(`  ${String(entry.count).padStart(6)} x ${key} (e.g. ${entry.example})`);
    if (missingComments) console.log(`  ${missingComments} answered comments are missing from the database`);
    for (const stale of staleEdits) console.log(`  ${stale}`);
    process.exitCode = 1;
  }
  recorder.destroy();
  child!.kill('SIGTERM');
  await new Promise((resolve) => child!.once('exit', resolve));
  fs.rmSync(dir, { recursive: true, force: true });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
  if (child && child.exitCode === null) child.kill();
});
