// `npm run bench:engine`: the render workers' figures on a generated site. Prints; asserts nothing.
//  1. Full pre-render against Hugo building the same pages from the same database, interleaved
//     (ours, Hugo, ours, Hugo, ours, Hugo), medians; pages/s, the ratio, our peak memory (RSS of
//     the server's process tree, sampled, and the kernel's high-water mark).
//  2. Rename storm: readers on stored pages (a bounded load of BENCH_READERS connections), then a
//     category rename that stales every page; reader throughput and p99 while the background
//     refresh runs, against the fresh site before and after, and how long the queue took to drain.
// BENCH_ARTICLES (10000), BENCH_SECONDS (10), BENCH_ROUNDS (3), BENCH_READERS (32).
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generateSite } from './generate-site.ts';
import { buildWithHugo, ensureHugo, generateHugoSite } from './hugo.ts';
import { readPages, sleep, type ReaderFigures } from './readers.ts';
import { logInAdmin, requireBuild, rssMb, SERVER_MAIN, siteEnv, type Started, startProcess } from './site.ts';
import { RENDER_NICE } from '../src/server/page-store/render-workers.ts';

const ARTICLES = Number(process.env.BENCH_ARTICLES ?? 10_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
const READERS = Number(process.env.BENCH_READERS ?? 32);
const CATEGORIES = 10;
const ADMIN = { email: 'bench@example.com', password: 'bench-password-123' };
const children: ChildProcess[] = [];

function highWaterMb(pid: number): number {
  return Number(/VmHWM:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

interface OurRun {
  pages: number;
  seconds: number;
  peakMb: number;
  site: Started;
}

/** Our full pre-render: the server started on an empty store fills it with every public page. */
async function prerenderOurs(dir: string, databasePath: string): Promise<OurRun> {
  const env = siteEnv(dir, databasePath, ADMIN);
  fs.rmSync(env.PAGE_STORE_DIR!, { recursive: true, force: true });
  const { child, started } = startProcess([SERVER_MAIN], env, /Pre-rendered \d+ pages/);
  children.push(child);
  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(child.pid!))), 100);
  try {
    const site = await started;
    const figures = /Pre-rendered (\d+) pages in ([\d.]+) s/.exec(site.output())!;
    peak = Math.max(peak, rssMb(child.pid!), highWaterMb(child.pid!));
    return { pages: Number(figures[1]), seconds: Number(figures[2]), peakMb: peak, site };
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
  const status = async () =>
    (await (await fetch(`${site.origin}/api/admin/page-refresh`, { headers: auth })).json()) as {
      queued: number;
      refreshedSinceLastChange: number;
      seconds: number;
    };
  console.log(`Rename storm: ${READERS} reader connections, ${SECONDS} s per phase`);
  await readPages(readers, READERS, sleep(3000)); // warm-up
  const freshBefore = await readPages(readers, READERS, sleep(SECONDS * 1000));
  const loads = [load()];

  const categories = (await (await fetch(`${site.origin}/api/categories`)).json()) as Array<{ id: number; sequence: number }>;
  const during = readPages(readers, READERS, sleep(SECONDS * 1000));
  const renamedAt = performance.now();
  const put = await fetch(`${site.origin}/api/categories/${categories[0]!.id}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', ...auth },
    body: JSON.stringify({ name: `Renamed subject ${Date.now()}`, sequence: categories[0]!.sequence }),
  });
  if (!put.ok) throw new Error(`Rename failed: ${put.status} ${await put.text()}`);
  const answer = (await put.json()) as { live_ms: number; refresh: { queued: number } };
  const storm = await during;
  loads.push(load());
  const inWindow = await status();
  let drained = inWindow;
  while (drained.queued > 0) {
    await sleep(200);
    drained = await status();
  }
  const drainSeconds = (performance.now() - renamedAt) / 1000;
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
  console.log(readerRow('during the refresh', storm));
  console.log(readerRow('fresh site, after', freshAfter));
  console.log(
    `  during/fresh: throughput ${(storm.rps / fresh).toFixed(2)}x (target >= 0.8x), p99 ${(storm.p99 / freshP99).toFixed(2)}x (target <= 2x)`,
  );
  console.log(
    `  refreshed while the readers ran: ${answer.refresh.queued - inWindow.queued} pages in ${storm.seconds.toFixed(1)} s; ` +
      `queue drained ${drainSeconds.toFixed(1)} s after the rename (${drained.refreshedSinceLastChange} pages refreshed)`,
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
  const theirs: Array<{ pages: number; seconds: number }> = [];
  let last: Started | undefined;
  for (let round = 1; round <= ROUNDS; round++) {
    const run = await prerenderOurs(dir, databasePath);
    ours.push(run);
    console.log(
      `  round ${round}: ours ${run.pages} pages in ${run.seconds.toFixed(1)} s (${(run.pages / run.seconds).toFixed(0)}/s, peak ${run.peakMb.toFixed(0)} MB)`,
    );
    if (round < ROUNDS) await stop(run.site);
    else last = run.site;
    const built = buildWithHugo(hugo, hugoSite, RENDER_NICE);
    theirs.push(built);
    console.log(
      `  round ${round}: Hugo ${built.pages} pages in ${built.seconds.toFixed(1)} s (${(built.pages / built.seconds).toFixed(0)}/s)`,
    );
  }
  const ourRate = median(ours.map((r) => r.pages / r.seconds));
  const hugoRate = median(theirs.map((r) => r.pages / r.seconds));
  console.log('\nFull pre-render against Hugo (medians)');
  console.log(
    `  ours: ${ourRate.toFixed(0)} pages/s (${ours[0]!.pages} pages); Hugo: ${hugoRate.toFixed(0)} pages/s (${theirs[0]!.pages} pages)`,
  );
  console.log(`  ratio ${(ourRate / hugoRate).toFixed(2)}x (target >= 1.0x)`);
  console.log(
    `  our peak memory (RSS, process tree): ${median(ours.map((r) => r.peakMb)).toFixed(0)} MB median, ${Math.max(...ours.map((r) => r.peakMb)).toFixed(0)} MB max (target < 600 MB)`,
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
