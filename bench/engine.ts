// `npm run bench:engine`: the render workers' figures on a generated site. Prints; asserts nothing.
//  1. Full pre-render against Hugo building the same pages from the same database, interleaved
//     (ours, Hugo, ours, Hugo, ours, Hugo), medians; both timed from the process's start, with
//     their CPU time and peak memory (RSS of the process tree, sampled, and the kernel's
//     high-water mark), Hugo at our render workers' nice value; then what each output takes on disk.
//  2. Rename storm: readers on stored pages (a bounded load of BENCH_READERS connections), then a
//     category rename that stales every page; reader throughput and p99 over the whole
//     background refresh (until every process's queue drained), against the fresh site before and after.
// BENCH_ARTICLES (10000), BENCH_SECONDS (10), BENCH_ROUNDS (3), BENCH_READERS (32),
// BENCH_RENAME_CAP_SECONDS (600: the readers stop there if the refresh has not drained).
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generateSite } from './generate-site.ts';
import { buildWithHugo, bytesUnder, ensureHugo, generateHugoSite, type HugoBuild } from './hugo.ts';
import { readPages, sleep, type ReaderFigures } from './readers.ts';
import {
  highWaterMb,
  logInAdmin,
  median,
  refreshStatus,
  cpuSecondsOf,
  processTree,
  requireBuild,
  rssMb,
  SERVER_MAIN,
  siteEnv,
  type Started,
  startProcess,
} from './site.ts';
import { RENDER_NICE } from '../src/server/page-store/render-workers.ts';

const ARTICLES = Number(process.env.BENCH_ARTICLES ?? 10_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
const READERS = Number(process.env.BENCH_READERS ?? 32);
const RENAME_CAP_SECONDS = Number(process.env.BENCH_RENAME_CAP_SECONDS ?? 600);
const CATEGORIES = 10;
const ADMIN = { email: 'bench@example.com', password: 'bench-password-123' };
const children: ChildProcess[] = [];

interface OurRun {
  pages: number;
  /** The server's own figure: from the pre-render's start to its last page stored. */
  seconds: number;
  /** From the process's start to every page stored, as Hugo is timed. */
  fromStart: number;
  /** CPU seconds of every process of the server by then. */
  cpuSeconds: number;
  /** The highest resident memory of every process together, sampled every 100 ms (or one process's high-water mark, if higher). */
  peakMb: number;
  /** The page store's files once every page is stored (in brotli). */
  bytes: { apparent: number; disk: number };
  site: Started;
}

/** Our full pre-render: the server started on an empty store fills it with every public page. */
async function prerenderOurs(dir: string, databasePath: string): Promise<OurRun> {
  const env = siteEnv(dir, databasePath, ADMIN);
  fs.rmSync(env.PAGE_STORE_DIR!, { recursive: true, force: true });
  const startedAt = performance.now();
  const { child, started } = startProcess([SERVER_MAIN], env, /Pre-rendered \d+ pages/);
  children.push(child);
  let peak = 0;
  const samplePeak = () => {
    for (const pid of processTree(child.pid!)) peak = Math.max(peak, highWaterMb(pid));
    peak = Math.max(peak, rssMb(child.pid!));
  };
  const sampler = setInterval(samplePeak, 100);
  try {
    const site = await started;
    const fromStart = (performance.now() - startedAt) / 1000;
    const cpuSeconds = cpuSecondsOf(processTree(child.pid!));
    const figures = /Pre-rendered (\d+) pages in ([\d.]+) s/.exec(site.output())!;
    samplePeak();
    return {
      pages: Number(figures[1]),
      seconds: Number(figures[2]),
      fromStart,
      cpuSeconds,
      peakMb: peak,
      bytes: bytesUnder(env.PAGE_STORE_DIR!),
      site,
    };
  } finally {
    clearInterval(sampler);
  }
}

async function stop(site: Started): Promise<void> {
  if (site.child.exitCode !== null) return;
  const exited = new Promise((resolve) => site.child.once('exit', resolve));
  site.child.kill('SIGTERM');
  await exited;
}

const load = () => `load average ${os.loadavg()[0]!.toFixed(1)}`;

function readerRow(name: string, r: ReaderFigures): string {
  const states = Object.entries(r.states)
    .map(([state, n]) => `${state} ${n}`)
    .join(', ');
  return `  ${name.padEnd(30)} ${r.rps.toFixed(0).padStart(6)} req/s  p50 ${r.p50.toFixed(1).padStart(6)} ms  p99 ${r.p99.toFixed(1).padStart(6)} ms  errors ${r.errors}  (${states})`;
}

async function renameStorm(site: Started) {
  const token = await logInAdmin(site.origin, ADMIN);
  const auth = { authorization: `Bearer ${token}` };
  const readers = { origin: site.origin, articles: ARTICLES, categories: CATEGORIES };
  const status = () => refreshStatus(site.origin, token);
  console.log(`Rename storm: ${READERS} reader connections, ${SECONDS} s per phase`);
  await readPages(readers, READERS, sleep(3000)); // warm-up
  const freshBefore = await readPages(readers, READERS, sleep(SECONDS * 1000));
  const loads = [load()];

  const categories = (await (await fetch(`${site.origin}/api/categories`)).json()) as Array<{ id: number; sequence: number }>;
  const before = await status();
  // The readers read through the whole background refresh: until every process's queue drained
  // (the admin's status sums them), twice running, or RENAME_CAP_SECONDS.
  let drained: Awaited<ReturnType<typeof status>> | undefined;
  let capped = false;
  let drainSeconds = 0;
  let renamedAt = performance.now();
  let renamed: () => void = () => {};
  const renameAnswered = new Promise<void>((resolve) => (renamed = resolve));
  const refreshOver = (async () => {
    await renameAnswered;
    for (let emptyPolls = 0; emptyPolls < 2; ) {
      await sleep(250);
      drained = await status();
      emptyPolls = drained.queued === 0 ? emptyPolls + 1 : 0;
      if ((performance.now() - renamedAt) / 1000 > RENAME_CAP_SECONDS) {
        capped = true;
        break;
      }
    }
    drainSeconds = (performance.now() - renamedAt) / 1000;
  })();
  const during = readPages(readers, READERS, refreshOver);
  renamedAt = performance.now();
  const put = await fetch(`${site.origin}/api/categories/${categories[0]!.id}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', ...auth },
    body: JSON.stringify({ name: `Renamed subject ${Date.now()}`, sequence: categories[0]!.sequence }),
  });
  if (!put.ok) throw new Error(`Rename failed: ${put.status} ${await put.text()}`);
  const answer = (await put.json()) as { live_ms: number; refresh: { queued: number } };
  renamed();
  const storm = await during;
  loads.push(load());
  const freshAfter = await readPages(readers, READERS, sleep(SECONDS * 1000));
  loads.push(load());

  const fresh = (freshBefore.rps + freshAfter.rps) / 2;
  const freshP99 = (freshBefore.p99 + freshAfter.p99) / 2;
  console.log('\nRename storm');
  console.log(
    `  the rename answered in ${answer.live_ms} ms (hot pages fresh) and queued ${answer.refresh.queued} pages for the background refresh`,
  );
  console.log(`  machine after each phase: ${loads.join(', ')}`);
  console.log(readerRow('fresh site, before', freshBefore));
  console.log(readerRow('during the whole refresh', storm));
  console.log(readerRow('fresh site, after', freshAfter));
  console.log(
    `  during/fresh: throughput ${(storm.rps / fresh).toFixed(2)}x (target >= 0.8x), p99 ${(storm.p99 / freshP99).toFixed(2)}x (target <= 2x)`,
  );
  console.log(
    `  whole refresh: ${drained?.refreshedSinceLastChange ?? 0} pages refreshed, every queue drained ` +
      `${drainSeconds.toFixed(1)} s after the rename (target < 60 s)` +
      (capped ? `; NOT drained: stopped at the ${RENAME_CAP_SECONDS} s cap with ${drained?.queued ?? '?'} queued` : ''),
  );
  // A sibling tells its figures when its queue moves, so its pre-render may be missing from
  // `before`: the refreshed pages are the count to compare with (a pre-render patches none).
  const patched = (drained?.patchedByWorkers ?? 0) - (before.patchedByWorkers ?? 0);
  const renamedNames = (drained?.renamedByWorkers ?? 0) - (before.renamedByWorkers ?? 0);
  console.log(
    `  of the ${drained?.refreshedSinceLastChange ?? 0} pages refreshed, ${patched} had their header and footer ` +
      `patched instead of a render, ${renamedNames} of them with the category's new name written in too`,
  );
}

async function main() {
  requireBuild();
  const hugo = ensureHugo();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'study-engine-'));
  const databasePath = path.join(dir, 'site.sqlite');
  console.log(`Generating ${ARTICLES} articles in ${CATEGORIES} categories, and the same site for Hugo...`);
  await generateSite(databasePath, {
    articles: ARTICLES,
    categories: CATEGORIES,
    adminEmail: ADMIN.email,
    adminPassword: ADMIN.password,
  });
  const hugoSite = generateHugoSite(databasePath, dir);
  console.log(
    `Machine: ${os.cpus().length} cores, load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}; Hugo runs at nice ${RENDER_NICE} like our render workers`,
  );

  const ours: OurRun[] = [];
  const theirs: HugoBuild[] = [];
  let last: Started | undefined;
  const mb = (bytes: number) => (bytes / 1048576).toFixed(0);
  for (let round = 1; round <= ROUNDS; round++) {
    const run = await prerenderOurs(dir, databasePath);
    ours.push(run);
    console.log(
      `  round ${round}: ours ${run.pages} pages stored ${run.fromStart.toFixed(1)} s from the start (pre-render ${run.seconds.toFixed(1)} s), ` +
        `CPU ${run.cpuSeconds.toFixed(1)} s, peak ${run.peakMb.toFixed(0)} MB, ` +
        `store ${mb(run.bytes.apparent)} MB; ${load()}`,
    );
    if (round < ROUNDS) await stop(run.site);
    else last = run.site;
    const built = await buildWithHugo(hugo, hugoSite, RENDER_NICE);
    theirs.push(built);
    console.log(
      `  round ${round}: Hugo ${built.pages} pages in ${built.seconds.toFixed(1)} s, CPU ${built.cpuSeconds.toFixed(1)} s, ` +
        `peak ${built.peakMb.toFixed(0)} MB, output ${mb(built.bytes.apparent)} MB (${mb(built.bytes.disk)} MB on disk); ${load()}`,
    );
  }
  const ourRate = median(ours.map((r) => r.pages / r.fromStart));
  const hugoRate = median(theirs.map((r) => r.pages / r.seconds));
  const ourCpu = median(ours.map((r) => r.cpuSeconds));
  const hugoCpu = median(theirs.map((r) => r.cpuSeconds));
  const ourBytes = median(ours.map((r) => r.bytes.apparent));
  const hugoBytes = median(theirs.map((r) => r.bytes.apparent));
  const ourDisk = median(ours.map((r) => r.bytes.disk));
  const hugoDisk = median(theirs.map((r) => r.bytes.disk));
  console.log('\nFull pre-render against Hugo, both from the process start (medians)');
  console.log(
    `  ours: ${ourRate.toFixed(0)} pages/s (${ours[0]!.pages} pages); Hugo: ${hugoRate.toFixed(0)} pages/s (${theirs[0]!.pages} pages); ` +
      `ratio ${(ourRate / hugoRate).toFixed(2)}x (target >= 1.0x)`,
  );
  console.log(
    `  our own pre-render figure (from its start, not the process's): ${median(ours.map((r) => r.pages / r.seconds)).toFixed(0)} pages/s, ` +
      `each page stored in brotli`,
  );
  console.log(
    `  CPU time: ours ${ourCpu.toFixed(1)} s, Hugo ${hugoCpu.toFixed(1)} s: ${(ourCpu / hugoCpu).toFixed(2)}x (target <= 1.2x)`,
  );
  console.log(
    `  peak memory: ours ${median(ours.map((r) => r.peakMb)).toFixed(0)} MB (every process), Hugo ${median(theirs.map((r) => r.peakMb)).toFixed(0)} MB (target: ours < 512 MB)`,
  );
  console.log(
    `  on disk: our page store ${mb(ourBytes)} MB (each page in brotli), Hugo's output ${mb(hugoBytes)} MB (as rendered): ` +
      `${(ourBytes / hugoBytes).toFixed(2)}x (target <= 1.2x)`,
  );
  console.log(
    `  disk blocks taken (as du counts; one small file per Hugo page): ours ${mb(ourDisk)} MB, Hugo ${mb(hugoDisk)} MB: ${(ourDisk / hugoDisk).toFixed(2)}x`,
  );

  await renameStorm(last!);
  await stop(last!);
  fs.rmSync(dir, { recursive: true, force: true });
}

main()
  .catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(() => {
    for (const child of children) if (child.exitCode === null) child.kill();
  });
