// `npm run bench:wrk`: the built server against nginx serving the same bytes, both driven by `wrk`
// (Debian's package) on the same cores, on one hot article page and on pages drawn at random (Zipf)
// across every public page of a generated site. nginx gets as many worker processes as the server
// has serving processes (WEB_PROCESSES). Runs are interleaved (ours, nginx, ours, nginx, ...) and
// medians of the rounds printed with the load average of each run, requests per second, latency,
// and the CPU time each side spent per request (from /proc: the server's whole process tree, its
// render and search threads included, against nginx's master and workers). The memory of every
// process of the server is sampled through each phase (readers, readers with a writer, readers
// with searchers) and printed against the budget. The writer's and the searchers' runs are
// interleaved with runs of the readers alone, each after the background refresh drained, and
// compared with those. Last, with the render workers at rest, readers whose views are counted (the
// top-viewed list moves, and a check refreshes every home page). The hot page is also asked of a
// bare node:http cluster sending the same bytes (bench/node-floor.mjs): the ceiling Node's own
// HTTP layer sets.
// Prints figures beside their targets; asserts nothing.
//
// BENCH_ARTICLES (10000), BENCH_SECONDS (10 per run), BENCH_ROUNDS (3), WEB_PROCESSES (2),
// BENCH_CONNECTIONS (64), BENCH_WRK_THREADS (2), BENCH_ZIPF_S (1.0), BENCH_ENCODINGS (br,identity),
// BENCH_PHASE_SECONDS (20: each run of the writer and search phases), BENCH_VIEWS_SECONDS (70) and
// BENCH_VIEWS_PER_SECOND (50: the phase with views), BENCH_MEMORY_MB (512, or 350 with
// WEB_PROCESSES=1: the 1 GB profile), WRK (wrk), RENDER_WORKERS_REST_SECONDS (60: the last phases
// wait that long for the render workers to stop).
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../src/server/db/client.ts';
import { listPublicUrls } from '../src/server/page-store/site-map.ts';
import { topViewedIds } from '../src/server/db/repositories/site-pages.ts';
import {
  fetchWriteBodies,
  logInAdmin,
  median,
  refreshStatus,
  requireBuild,
  SERVER_MAIN,
  siteEnv,
  startProcess,
  stopOnInterrupt,
  type Admin,
} from './site.ts';
import {
  copyPagesForNginx,
  freePort,
  generateComparedSite,
  loadAverage,
  nginxRoot,
  rawGet,
  startNginxWith,
  stopChildren,
} from './peer-servers.ts';
import { MemorySampler } from './memory-sampler.ts';
import { argsOf, runWrk as runWrkWith, zipfScript, type WrkOptions, type WrkRun } from './wrk-run.ts';
import { countViews, newTally, saveTitles, searchFromAddresses } from './wrk-side-loads.ts';
import { TRIM_CHECK_MS } from '../src/server/front/memory-trim.ts';

const setting = (name: string, fallback: number) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number`);
  return value;
};
const ARTICLES = setting('BENCH_ARTICLES', 10_000);
const SECONDS = setting('BENCH_SECONDS', 10);
const ROUNDS = Math.max(3, setting('BENCH_ROUNDS', 3));
const PROCESSES = setting('WEB_PROCESSES', 2);
const CONNECTIONS = setting('BENCH_CONNECTIONS', 64);
const THREADS = setting('BENCH_WRK_THREADS', 2);
const ZIPF_S = setting('BENCH_ZIPF_S', 1);
const PHASE_SECONDS = setting('BENCH_PHASE_SECONDS', 20);
// Long enough for the lead's top-viewed check (every TOP_VIEWED_REFRESH_SECONDS, 60 by default)
// to fall in it at least once.
const VIEWS_SECONDS = setting('BENCH_VIEWS_SECONDS', 70);
const VIEWS_PER_SECOND = setting('BENCH_VIEWS_PER_SECOND', 50);
// The server's own setting, passed on to it (its default: 60); with 0 the workers never stop.
const REST_SECONDS = Number(process.env.RENDER_WORKERS_REST_SECONDS || 60);
const ENCODINGS = (process.env.BENCH_ENCODINGS ?? 'br,identity').split(',').map((e) => e.trim()) as Array<
  'br' | 'gzip' | 'identity'
>;
const WRK = process.env.WRK || 'wrk';
const ADMIN: Admin = { email: 'bench@example.com', password: 'bench-password-123' };
// The budget of the default settings, and of the 1 GB profile (one serving process); the
// report judged that profile against 512 MB and said "met" where 350 MB was missed.
const MEMORY_BUDGET_MB = setting('BENCH_MEMORY_MB', PROCESSES === 1 ? 350 : 512);
const TARGETS = { ratio: 0.6, cpu: 2, searchReaders: 0.8 };
const children: ChildProcess[] = [];
const WRK_OPTIONS: WrkOptions = { wrk: WRK, threads: THREADS, connections: CONNECTIONS, seconds: SECONDS };
const runWrk = (origin: string, args: string[], serverPid: number, seconds?: number) =>
  runWrkWith(WRK_OPTIONS, origin, args, serverPid, seconds);

const pct = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : NaN;
};
const us = (seconds: number, requests: number) => (requests > 0 ? (seconds / requests) * 1e6 : NaN);
const f0 = (n: number) => n.toFixed(0);
const f2 = (n: number) => n.toFixed(2);
const meets = (ok: boolean) => (ok ? 'met' : 'MISSED');

/**
 * Node's floor (bench/node-floor.mjs): a bare node:http cluster with as many processes as ours,
 * answering every request with the hot page's exact bytes and headers, as the built server sent them.
 */
async function startNodeFloor(dir: string, port: number, hotPath: string, children: ChildProcess[]) {
  const page: Record<string, { headers: Record<string, string>; body: string }> = {};
  for (const encoding of ['br', 'identity']) {
    const answer = await rawGet(port, hotPath, encoding);
    const headers = Object.fromEntries(
      Object.entries(answer.headers).filter(([name]) => !['date', 'connection', 'keep-alive', 'x-page-store'].includes(name)),
    );
    page[encoding] = { headers, body: answer.body.toString('base64') };
  }
  const file = path.join(dir, 'floor-page.json');
  fs.writeFileSync(file, JSON.stringify(page));
  const floorPort = await freePort();
  const child = stopOnInterrupt(
    spawn(process.execPath, [path.join(import.meta.dirname, 'node-floor.mjs')], {
      env: { ...process.env, FLOOR_PORT: String(floorPort), FLOOR_PROCESSES: String(PROCESSES), FLOOR_PAGE: file },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    }),
  );
  children.push(child);
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('node-floor.mjs did not start')), 30_000);
    const poll = () =>
      rawGet(floorPort, hotPath, 'br').then(
        () => (clearTimeout(timer), resolve()),
        () => setTimeout(poll, 100),
      );
    poll();
  });
  return { origin: `http://127.0.0.1:${floorPort}`, pid: child.pid! };
}

async function main(): Promise<void> {
  requireBuild();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'study-wrk-'));
  let memory: MemorySampler | null = null;
  try {
    const databasePath = await generateComparedSite(dir, ARTICLES, ADMIN);
    const { db, sqlite } = openDatabase(databasePath, { readOnly: true });
    const allPaths = await listPublicUrls(db);
    // Every article, the most viewed first: the order readers' views go by (Zipf).
    const byViews = await topViewedIds(db, ARTICLES);
    await db.destroy();
    sqlite.close?.();

    console.log(`Starting the built server (WEB_PROCESSES=${PROCESSES}) and pre-rendering every public page...`);
    const started = startProcess(
      [SERVER_MAIN],
      { ...siteEnv(dir, databasePath, ADMIN), WEB_PROCESSES: String(PROCESSES), TRUST_PROXY: 'true' },
      /Pre-rendered \d+ pages/,
    );
    children.push(started.child);
    const site = await started.started;
    const serverPid = started.child.pid!;
    const port = Number(new URL(site.origin).port);
    console.log(/Pre-rendered[^\n]*/.exec(site.output())?.[0]);
    const sampler = new MemorySampler(serverPid);
    memory = sampler;
    sampler.phase('idle, after the pre-render');

    console.log(`Copying every public page (${allPaths.length}) in ${ENCODINGS.join(', ')} for nginx, through the server...`);
    const www = nginxRoot(dir);
    const copyStarted = Date.now();
    sampler.phase('every page read once in each encoding');
    const { kept, skipped } = await copyPagesForNginx(port, allPaths, www, ENCODINGS);
    console.log(
      `  ${kept.length} HTML pages in ${((Date.now() - copyStarted) / 1000).toFixed(0)} s` +
        (skipped.length ? `; left out (not HTML): ${skipped.join(', ')}` : ''),
    );
    const indexOf = new Map(allPaths.map((p, i) => [p, i]));
    const hotPath = `/blog/${Math.floor(ARTICLES / 2)}`;
    const hotIndex = indexOf.get(hotPath)!;

    // nginx sends the same bodies and the same security headers (with the hot page's policy).
    const probe = await rawGet(port, hotPath, 'identity');
    const same = [
      'content-security-policy',
      'x-content-type-options',
      'referrer-policy',
      'x-frame-options',
      'cross-origin-opener-policy',
      'permissions-policy',
    ];
    const addHeaders = same
      .filter((name) => probe.headers[name])
      .map((name) => `add_header ${name} "${probe.headers[name]!.replace(/"/g, '\\"')}";`)
      .join('\n      ');
    const nginxPort = await startNginxWith(
      dir,
      PROCESSES,
      `default_type "text/html; charset=utf-8";
    location /p/ {
      ${addHeaders}
      add_header Vary Accept-Encoding;
      add_header Content-Encoding $coding;
      try_files $uri$suffix =404;
    }`,
      children,
    );
    const nginxPid = children.at(-1)!.pid!;
    const nginxAnswer = await rawGet(nginxPort, `/p/${hotIndex}`, 'br');
    const oursAnswer = await rawGet(port, hotPath, 'br');
    if (!nginxAnswer.body.equals(oursAnswer.body)) throw new Error('nginx does not send the bytes the server sends');
    console.log(
      `Header bytes of the hot page (br): ours ${oursAnswer.headerBytes} B, nginx ${nginxAnswer.headerBytes} B; body ${oursAnswer.body.length} B`,
    );
    const floor = await startNodeFloor(dir, port, hotPath, children);

    const loads: Array<{ name: string; ours: string[]; nginx: string[]; floor?: string[] }> = [];
    for (const encoding of ENCODINGS) {
      const oursScript = path.join(dir, `zipf-ours-${encoding}.lua`);
      const nginxScript = path.join(dir, `zipf-nginx-${encoding}.lua`);
      zipfScript(oursScript, kept, encoding, ZIPF_S);
      zipfScript(
        nginxScript,
        kept.map((p) => `/p/${indexOf.get(p)}`),
        encoding,
        ZIPF_S,
      );
      loads.push({
        name: `random pages (Zipf s=${ZIPF_S}, ${kept.length}), ${encoding}`,
        ours: ['-s', oursScript],
        nginx: ['-s', nginxScript],
      });
    }
    for (const encoding of ENCODINGS)
      loads.push({
        name: `hot page ${hotPath}, ${encoding}`,
        ours: ['-H', `Accept-Encoding: ${encoding}`, '--', hotPath],
        nginx: ['-H', `Accept-Encoding: ${encoding}`, '--', `/p/${hotIndex}`],
        floor: ['-H', `Accept-Encoding: ${encoding}`, '--', hotPath],
      });

    console.log(
      `\nLoad: wrk ${THREADS} threads, ${CONNECTIONS} connections, ${SECONDS} s a run, ${ROUNDS} rounds interleaved (ours, nginx, ...); ` +
        `ours WEB_PROCESSES=${PROCESSES}, nginx worker_processes=${PROCESSES}; all on the same ${os.cpus().length} cores (wrk too)`,
    );
    sampler.phase('readers (wrk, the runs below)');
    const oursOrigin = site.origin;
    const nginxOrigin = `http://127.0.0.1:${nginxPort}`;
    // Warm-up: a short run of the first load on each side, not counted.
    const warmOurs = argsOf(loads[0]!.ours, oursOrigin);
    await runWrk(warmOurs.origin, warmOurs.args, serverPid, 3);
    const warmNginx = argsOf(loads[0]!.nginx, nginxOrigin);
    await runWrk(warmNginx.origin, warmNginx.args, nginxPid, 3);
    const results: Array<{ name: string; ours: WrkRun[]; nginx: WrkRun[] }> = [];
    for (const load of loads) {
      const entry = { name: load.name, ours: [] as WrkRun[], nginx: [] as WrkRun[], floor: [] as WrkRun[] };
      for (let round = 0; round < ROUNDS; round++) {
        const o = argsOf(load.ours, oursOrigin);
        entry.ours.push(await runWrk(o.origin, o.args, serverPid));
        const n = argsOf(load.nginx, nginxOrigin);
        entry.nginx.push(await runWrk(n.origin, n.args, nginxPid));
        if (load.floor) {
          const f = argsOf(load.floor, floor.origin);
          entry.floor.push(await runWrk(f.origin, f.args, floor.pid));
        }
      }
      results.push(entry);
      const m = (runs: WrkRun[], pick: (r: WrkRun) => number) => median(runs.map(pick));
      const oursRps = m(entry.ours, (r) => r.rps);
      const nginxRps = m(entry.nginx, (r) => r.rps);
      const oursCpu = m(entry.ours, (r) => us(r.serverCpu, r.requests));
      const nginxCpu = m(entry.nginx, (r) => us(r.serverCpu, r.requests));
      const ratio = oursRps / nginxRps;
      const each = (runs: WrkRun[]) => runs.map((r) => `${f0(r.rps)} (load ${f2(r.load)})`).join(', ');
      const wrkShare = (runs: WrkRun[]) => m(runs, (r) => r.wrkCpu / SECONDS / THREADS) * 100;
      console.log(`\n${load.name}`);
      console.log(
        `  ours  ${f0(oursRps).padStart(6)} req/s  p50 ${f2(m(entry.ours, (r) => r.p50))} ms  p99 ${f2(m(entry.ours, (r) => r.p99))} ms  ` +
          `CPU ${f0(oursCpu)} µs/request  failed ${entry.ours.reduce((s, r) => s + r.failed, 0)}   runs: ${each(entry.ours)}`,
      );
      console.log(
        `  nginx ${f0(nginxRps).padStart(6)} req/s  p50 ${f2(m(entry.nginx, (r) => r.p50))} ms  p99 ${f2(m(entry.nginx, (r) => r.p99))} ms  ` +
          `CPU ${f0(nginxCpu)} µs/request  failed ${entry.nginx.reduce((s, r) => s + r.failed, 0)}   runs: ${each(entry.nginx)}`,
      );
      if (entry.floor.length > 0) {
        const floorRps = m(entry.floor, (r) => r.rps);
        console.log(
          `  node:http alone ${f0(floorRps).padStart(6)} req/s  p50 ${f2(m(entry.floor, (r) => r.p50))} ms  p99 ${f2(m(entry.floor, (r) => r.p99))} ms  ` +
            `CPU ${f0(m(entry.floor, (r) => us(r.serverCpu, r.requests)))} µs/request   runs: ${each(entry.floor)}; ` +
            `its own ceiling against nginx ${f2(floorRps / nginxRps)}x, ours against it ${f2(oursRps / floorRps)}x`,
        );
      }
      console.log(
        `  ours/nginx ${f2(ratio)}x (target >= ${TARGETS.ratio}x: ${meets(ratio >= TARGETS.ratio)}); ` +
          `CPU per request ${f2(oursCpu / nginxCpu)}x nginx's (target <= ${TARGETS.cpu}x: ${meets(oursCpu / nginxCpu <= TARGETS.cpu)})`,
      );
      console.log(
        `  wrk: ${f0(m(entry.nginx, (r) => us(r.wrkCpu, r.requests)))} µs of its CPU a request against nginx, its ${THREADS} threads ` +
          `${f0(wrkShare(entry.nginx))}% busy (against ours ${f0(wrkShare(entry.ours))}%): it drove nginx at ${f2(nginxRps / oursRps)}x the rate it drove ours`,
      );
    }

    // Readers with a writer: the random-page readers while an admin saves article titles one after another.
    const randomLoad = loads[0]!;
    const readersAlone = median(results[0]!.ours.map((r) => r.rps));
    const token = await logInAdmin(site.origin, ADMIN);
    const editIds = Array.from({ length: 20 }, (_, i) => 1 + Math.floor(((i + 0.5) * ARTICLES) / 20));
    const bodies = await fetchWriteBodies(site.origin, editIds);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
    // A side load's pages refreshed in the background would otherwise weigh on the next run.
    const untilDrained = async () => {
      while ((await refreshStatus(site.origin, token)).queued > 0) await new Promise((resolve) => setTimeout(resolve, 250));
    };
    const phaseRun = async (name: string, during?: (until: () => boolean) => Promise<void>) => {
      await untilDrained();
      sampler.phase(name);
      const o = argsOf(randomLoad.ours, oursOrigin);
      let running = true;
      const side = during?.(() => running);
      const readers = await runWrk(o.origin, o.args, serverPid, PHASE_SECONDS);
      running = false;
      await side;
      return readers;
    };
    // Each with its own run of the readers alone just before it, interleaved over the rounds: the
    // machine drifts, and the readers' figure from the start of the benchmark is not this one's.
    const saves = newTally();
    const searches = newTally();
    const alone: WrkRun[] = [];
    const withWriter: WrkRun[] = [];
    const withSearch: WrkRun[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      alone.push(await phaseRun('readers alone (beside the side loads)'));
      withWriter.push(
        await phaseRun('readers + a writer saving titles', (going) =>
          saveTitles(going, { agent, origin: site.origin, token, bodies, editIds }, saves),
        ),
      );
      alone.push(await phaseRun('readers alone (beside the side loads)'));
      withSearch.push(
        await phaseRun('readers + 8 connections searching from 8 addresses', (going) =>
          searchFromAddresses(going, agent, site.origin, searches),
        ),
      );
    }
    // Two looks at the end: at once, and once each process has had time to see it went quiet
    // and hand back what it kept (src/server/front/memory-trim.ts checks every 5 s).
    const settleMs = 2 * TRIM_CHECK_MS + 2000;
    sampler.phase('idle, just after the load');
    await new Promise((resolve) => setTimeout(resolve, settleMs));
    sampler.phase(`idle, ${settleMs / 1000} s after the load`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    // Most of a site's life: readers only, no render for a while, so the render workers have
    // stopped (RENDER_WORKERS_REST_SECONDS after the last render, a search page's included).
    // Read now: an admin request wakes the render workers, and they rest again before the last phases.
    const rendersBefore = (await refreshStatus(site.origin, token)).renderedByWorkers ?? 0;
    sampler.phase('idle, until the render workers rest');
    await new Promise((resolve) => setTimeout(resolve, (REST_SECONDS + 5) * 1000));
    sampler.phase('idle, the render workers at rest');
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const o = argsOf(randomLoad.ours, oursOrigin);
    sampler.phase('readers, the render workers at rest');
    const atRest = await runWrk(o.origin, o.args, serverPid, PHASE_SECONDS);
    // A site's readers count their views: the top-viewed list moves, and each check that sees it
    // refreshes every home page. Views go by Zipf over the articles, the most viewed first.
    sampler.phase(`readers + ${VIEWS_PER_SECOND} views a second (${VIEWS_SECONDS} s)`);
    const views = newTally();
    let viewing = true;
    const viewers = countViews(
      () => viewing,
      { agent, origin: site.origin, ranked: byViews, perSecond: VIEWS_PER_SECOND },
      views,
    );
    const withViews = await runWrk(o.origin, o.args, serverPid, VIEWS_SECONDS);
    viewing = false;
    await viewers;
    sampler.phase('idle, after the views');
    const rendersDuringViews = ((await refreshStatus(site.origin, token)).renderedByWorkers ?? 0) - rendersBefore;
    await new Promise((resolve) => setTimeout(resolve, 1000));
    sampler.stop();
    const statuses = (map: Map<number, number>) => [...map].map(([s, n]) => `${s}: ${n}`).join(', ');
    const aloneRps = median(alone.map((r) => r.rps));
    const writerRps = median(withWriter.map((r) => r.rps));
    const searchRps = median(withSearch.map((r) => r.rps));
    const runs = (list: WrkRun[]) => list.map((r) => `${f0(r.rps)} (load ${f2(r.load)})`).join(', ');
    console.log(
      `\nReaders (random pages, ${randomLoad.name.split(', ').at(-1)}), ${PHASE_SECONDS} s runs, ${ROUNDS} rounds of: alone, with a writer, alone, with 8 searchers`,
    );
    console.log(`  alone: ${f0(aloneRps)} req/s (median; the first runs' ${f0(readersAlone)}); runs: ${runs(alone)}`);
    console.log(
      `  with a writer: ${f0(writerRps)} req/s = ${f2(writerRps / aloneRps)}x; ` +
        `${saves.times.length} saves, p50 ${f0(pct(saves.times, 50))} ms, p95 ${f0(pct(saves.times, 95))} ms (statuses ${statuses(saves.statuses)}); runs: ${runs(withWriter)}`,
    );
    console.log(
      `  with 8 searchers: ${f0(searchRps)} req/s = ${f2(searchRps / aloneRps)}x (target >= ${TARGETS.searchReaders}x: ` +
        `${meets(searchRps / aloneRps >= TARGETS.searchReaders)}); ${searches.times.length} searches (statuses ${statuses(searches.statuses)}); runs: ${runs(withSearch)}`,
    );
    console.log(
      `  alone, the render workers at rest: ${f0(atRest.rps)} req/s = ${f2(atRest.rps / aloneRps)}x (load ${f2(atRest.load)})`,
    );

    console.log(
      `  with ${VIEWS_PER_SECOND} views a second counted (${VIEWS_SECONDS} s, the render workers at rest when it began): ` +
        `${f0(withViews.rps)} req/s = ${f2(withViews.rps / aloneRps)}x (load ${f2(withViews.load)}); ` +
        `${views.times.length} views (statuses ${statuses(views.statuses)}, p95 ${f0(pct(views.times, 95))} ms); ` +
        `${rendersDuringViews} pages rendered by the workers (since the render workers began to rest)`,
    );

    sampler.report(MEMORY_BUDGET_MB);
    console.log(`\nLoad average after: ${loadAverage()}`);
  } finally {
    memory?.stop();
    await stopChildren(children);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
