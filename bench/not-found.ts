// `npm run bench:notfound`: readers' throughput alone and during a flood of unknown addresses
// (`/nope/<random>`), interleaved A, B, A, B, A, B, medians of three. Both loads come from `wrk`
// (Debian's /usr/bin/wrk): readers on NOTFOUND_READERS keep-alive connections asking for stored
// pages (articles, list pages, home), the flood on NOTFOUND_FLOOD connections asking for a new
// made-up address each time. Every unknown address should be answered from the one stored 404
// page at a stored page's cost, so readers keep most of their throughput (target: 0.8x or more).
// A figure, not a test: the machine it runs on decides the numbers.
//
// NOTFOUND_ARTICLES (300), NOTFOUND_SECONDS (6), NOTFOUND_READERS (8), NOTFOUND_FLOOD (8),
// WEB_PROCESSES (2), WRK (wrk).
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generateSite } from './generate-site.ts';
import { median, requireBuild, SERVER_MAIN, siteEnv, startProcess } from './site.ts';

function setting(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive whole number, got "${raw}"`);
  return value;
}

const ARTICLES = setting('NOTFOUND_ARTICLES', 300);
const SECONDS = setting('NOTFOUND_SECONDS', 6);
const READERS = setting('NOTFOUND_READERS', 8);
const FLOOD = setting('NOTFOUND_FLOOD', 8);
const PROCESSES = setting('WEB_PROCESSES', 2);
const CATEGORIES = 10;
const WRK = process.env.WRK || 'wrk';
const ADMIN = { email: 'bench@example.com', password: 'bench-password-123' };

interface WrkFigures {
  requests: number;
  /** Answers that were not 2xx or 3xx. */
  failed: number;
  errors: string | null;
}

/** Runs wrk with a Lua script; its summary, read from what it prints. */
function runWrk(origin: string, script: string, connections: number, seconds: number): Promise<WrkFigures> {
  const args = ['-t1', `-c${connections}`, `-d${seconds}s`, '--timeout', '10s', '-s', script, origin];
  return new Promise((resolve, reject) => {
    execFile(WRK, args, { timeout: (seconds + 30) * 1000 }, (error, stdout) => {
      if (error) return reject(new Error(`${WRK} ${args.join(' ')} failed: ${error.message}\n${stdout}`));
      const requests = Number(/(\d+) requests in/.exec(stdout)?.[1] ?? NaN);
      if (!Number.isFinite(requests)) return reject(new Error(`Unreadable wrk output:\n${stdout}`));
      resolve({
        requests,
        failed: Number(/Non-2xx or 3xx responses: (\d+)/.exec(stdout)?.[1] ?? 0),
        errors: /Socket errors: .*/.exec(stdout)?.[0] ?? null,
      });
    });
  });
}

/** The readers' pages: stored ones, as bench/readers.ts asks for them. */
function readerScript(dir: string): string {
  const pages: string[] = ['/', '/blogs'];
  for (let id = 1; id <= ARTICLES; id++) pages.push(`/blog/${id}`);
  for (let c = 1; c <= CATEGORIES; c++) pages.push(`/blogs?category=${c}`);
  const file = path.join(dir, 'readers.lua');
  fs.writeFileSync(
    file,
    `local pages = { ${pages.map((p) => JSON.stringify(p)).join(', ')} }
request = function() return wrk.format("GET", pages[math.random(#pages)]) end
`,
  );
  return file;
}

function floodScript(dir: string): string {
  const file = path.join(dir, 'flood.lua');
  // A 404 is what the flood asks for: wrk counts it as "Non-2xx", which is expected here.
  fs.writeFileSync(file, `request = function() return wrk.format("GET", "/nope/" .. math.random(1, 2000000000)) end\n`);
  return file;
}

async function main(): Promise<void> {
  requireBuild();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-notfound-'));
  const databasePath = path.join(dir, 'site.sqlite');
  console.log(`Generating ${ARTICLES} articles in ${CATEGORIES} categories...`);
  await generateSite(databasePath, {
    articles: ARTICLES,
    categories: CATEGORIES,
    adminEmail: ADMIN.email,
    adminPassword: ADMIN.password,
  });
  const env = { ...siteEnv(dir, databasePath, ADMIN), WEB_PROCESSES: String(PROCESSES) };
  const { child, started } = startProcess([SERVER_MAIN], env, /Pre-rendered \d+ pages/);
  try {
    const { origin } = await started;
    const readers = readerScript(dir);
    const flood = floodScript(dir);
    // Every page once (in memory, fresh), and the 404 page too, before anything is timed.
    await runWrk(origin, readers, READERS, SECONDS);
    await runWrk(origin, flood, FLOOD, 1);

    const alone: number[] = [];
    const during: number[] = [];
    let floodAnswers = 0;
    let readerFailures = 0;
    for (let round = 1; round <= 3; round++) {
      const a = await runWrk(origin, readers, READERS, SECONDS);
      alone.push(a.requests);
      readerFailures += a.failed;
      // The flood starts first and ends after the readers' run.
      const flooding = runWrk(origin, flood, FLOOD, SECONDS + 2);
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const b = await runWrk(origin, readers, READERS, SECONDS);
      const floodRun = await flooding;
      during.push(b.requests);
      readerFailures += b.failed;
      floodAnswers += floodRun.requests;
      console.log(
        `round ${round}: readers alone ${a.requests}, during the flood ${b.requests} per ${SECONDS} s ` +
          `(flood answered ${floodRun.requests} in ${SECONDS + 2} s${floodRun.errors ? `; ${floodRun.errors}` : ''})`,
      );
    }
    const ratio = median(during) / median(alone);
    console.log(
      `\nReaders (${READERS} connections, ${PROCESSES} processes): median ${median(alone)} answers per ${SECONDS} s alone, ` +
        `${median(during)} during a flood of unknown addresses on ${FLOOD} connections: ${ratio.toFixed(2)}x ` +
        `(target 0.8x or more). The flood got ${floodAnswers} 404s in all; readers' failed answers: ${readerFailures}.`,
    );
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
