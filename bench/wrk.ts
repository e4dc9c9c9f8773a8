// `npm run bench:wrk`: the built server against nginx serving the same bytes, both driven by `wrk`
// (Debian's package) on the same cores, on one hot article page and on pages drawn at random (Zipf)
// across every public page of a generated site. nginx gets as many worker processes as the server
// has serving processes (WEB_PROCESSES). Runs are interleaved (ours, nginx, ours, nginx, ...) and
// medians of the rounds printed with the load average of each run, requests per second, latency,
// and the CPU time each side spent per request (from /proc: the server's whole process tree, its
// render and search threads included, against nginx's master and workers). The memory of every
// process of the server is sampled through each phase (readers, readers with a writer, readers
// with searchers) and printed against the budget. Prints figures beside their targets; asserts
// nothing.
//
// BENCH_ARTICLES (10000), BENCH_SECONDS (10 per run), BENCH_ROUNDS (3), WEB_PROCESSES (2),
// BENCH_CONNECTIONS (64), BENCH_WRK_THREADS (2), BENCH_ZIPF_S (1.0), BENCH_ENCODINGS (br,identity),
// BENCH_PHASE_SECONDS (20: the writer and search phases), WRK (wrk).
import { execFile, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../src/server/db/client.ts';
import { listPublicUrls } from '../src/server/page-store/site-map.ts';
import {
  fetchWriteBodies,
  logInAdmin,
  processCpuSeconds,
  processRssMb,
  processTree,
  requireBuild,
  SERVER_MAIN,
  siteEnv,
  startProcess,
  type Admin,
} from './site.ts';
import { generateComparedSite, loadAverage, median, rawGet, startNginxWith } from './peer-servers.ts';

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
const ENCODINGS = (process.env.BENCH_ENCODINGS ?? 'br,identity').split(',').map((e) => e.trim()) as Array<
  'br' | 'gzip' | 'identity'
>;
const WRK = process.env.WRK || 'wrk';
const ADMIN: Admin = { email: 'bench@example.com', password: 'bench-password-123' };
const MEMORY_BUDGET_MB = 512;
const TARGETS = { ratio: 0.6, cpu: 2, searchReaders: 0.8 };
const SUFFIX = { br: '.br', gzip: '.gz', identity: '' } as const;
const children: ChildProcess[] = [];

interface WrkRun {
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  /** Answers that were not 2xx/3xx, and socket errors. */
  failed: number;
  /** CPU seconds wrk itself used (user + system, all its threads). */
  wrkCpu: number;
  /** CPU seconds the server (or nginx) used during the run, its whole process tree. */
  serverCpu: number;
  load: number;
}

/** wrk's latency figure ("1.23ms", "850.00us", "1.02s") in ms. */
function toMs(text: string | undefined): number {
  const m = /^([\d.]+)(us|ms|s|m)$/.exec(text ?? '');
  if (!m) return NaN;
  const n = Number(m[1]);
  return { us: n / 1000, ms: n, s: n * 1000, m: n * 60_000 }[m[2] as 'us' | 'ms' | 's' | 'm'];
}

/**
 * One wrk run against `origin`, its own CPU time read from the shell's `times` after it exited,
 * and the CPU time of the processes under `serverPid` over the run, from /proc.
 */
function runWrk(origin: string, args: string[], serverPid: number, seconds = SECONDS): Promise<WrkRun> {
  const all = [`-t${THREADS}`, `-c${CONNECTIONS}`, `-d${seconds}s`, '--timeout', '10s', '--latency', ...args, origin];
  const quoted = all.map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  const tree = processTree(serverPid);
  const cpuBefore = tree.reduce((sum, pid) => sum + processCpuSeconds(pid), 0);
  return new Promise((resolve, reject) => {
    execFile('bash', ['-c', `${WRK} ${quoted}; times`], { timeout: (seconds + 60) * 1000 }, (error, stdout) => {
      const serverCpu = tree.reduce((sum, pid) => sum + processCpuSeconds(pid), 0) - cpuBefore;
      const load = os.loadavg()[0]!;
      if (error) return reject(new Error(`wrk ${all.join(' ')} failed: ${error.message}\n${stdout}`));
      const requests = Number(/(\d+) requests in/.exec(stdout)?.[1] ?? NaN);
      if (!Number.isFinite(requests)) return reject(new Error(`Unreadable wrk output:\n${stdout}`));
      if (!/^\s+50%\s+[\d.]+(us|ms|s|m)\s/m.test(stdout)) console.log(`(wrk's latency figures unreadable:\n${stdout})`);
      // `times`: the shell's own user and system time, then its children's (wrk's).
      const times = [...stdout.matchAll(/(\d+)m([\d.]+)s (\d+)m([\d.]+)s/g)].at(-1);
      const wrkCpu = times ? Number(times[1]) * 60 + Number(times[2]) + Number(times[3]) * 60 + Number(times[4]) : NaN;
      const socketErrors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(stdout);
      resolve({
        requests,
        rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1] ?? NaN),
        p50: toMs(/^\s+50%\s+(\S+)/m.exec(stdout)?.[1]),
        p99: toMs(/^\s+99%\s+(\S+)/m.exec(stdout)?.[1]),
        failed:
          Number(/Non-2xx or 3xx responses: (\d+)/.exec(stdout)?.[1] ?? 0) +
          (socketErrors ? socketErrors.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0),
        wrkCpu,
        serverCpu,
        load,
      });
    });
  });
}

/**
 * The random readers' script: a page drawn by Zipf's law (weight 1/rank^s) over `paths`, ranked as
 * the site lists them (home, /blogs, the static pages, categories, newest articles first, later
 * list pages last). Each thread has its own seed, the same for both contenders.
 */
function zipfScript(file: string, paths: string[], encoding: string): void {
  fs.writeFileSync(
    file,
    `local paths = { ${paths.map((p) => JSON.stringify(p)).join(',\n')} }
local n = #paths
local cdf = {}
local acc = 0
for i = 1, n do acc = acc + 1 / (i ^ ${ZIPF_S}); cdf[i] = acc end
local headers = { ["Accept-Encoding"] = ${JSON.stringify(encoding)} }
local counter = 0
function setup(thread) counter = counter + 1; thread:set("seed", counter) end
function init(args) math.randomseed(seed * 7919) end
function request()
  local u = math.random() * acc
  local lo, hi = 1, n
  while lo < hi do
    local mid = math.floor((lo + hi) / 2)
    if cdf[mid] < u then lo = mid + 1 else hi = mid end
  end
  return wrk.format("GET", paths[lo], headers)
end
`,
  );
}

/** Samples the resident memory of every process under `pid` until stopped; the peaks by phase. */
class MemorySampler {
  readonly phases: Array<{ name: string; peakTotal: number; peakEach: Map<number, number>; samples: number }> = [];
  private timer: NodeJS.Timeout | null = null;
  private readonly pid: number;

  constructor(pid: number) {
    this.pid = pid;
  }

  phase(name: string): void {
    const current = { name, peakTotal: 0, peakEach: new Map<number, number>(), samples: 0 };
    this.phases.push(current);
    if (this.timer) clearInterval(this.timer);
    const sample = () => {
      let total = 0;
      for (const pid of processTree(this.pid)) {
        const mb = processRssMb(pid);
        total += mb;
        current.peakEach.set(pid, Math.max(current.peakEach.get(pid) ?? 0, mb));
      }
      current.peakTotal = Math.max(current.peakTotal, total);
      current.samples++;
    };
    sample();
    this.timer = setInterval(sample, 200);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}

async function stopChildren(): Promise<void> {
  await Promise.all(
    children.map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
        }),
    ),
  );
}

/** Fetches every path in each encoding (a few at a time), writing nginx's copy of the bytes; the HTML pages' paths. */
async function copyPagesForNginx(port: number, paths: string[], www: string): Promise<{ kept: string[]; skipped: string[] }> {
  const kept: string[] = [];
  const skipped: string[] = [];
  fs.mkdirSync(path.join(www, 'p'), { recursive: true });
  let next = 0;
  const worker = async () => {
    while (next < paths.length) {
      const index = next++;
      const urlPath = paths[index]!;
      let html = true;
      for (const encoding of ENCODINGS) {
        // The first request for an encoding has a worker make it; the next one has it stored.
        let answer = await rawGet(port, urlPath, encoding);
        if ((answer.headers['content-encoding'] ?? 'identity') !== encoding) answer = await rawGet(port, urlPath, encoding);
        if (answer.status !== 200 || !/^text\/html/.test(answer.headers['content-type'] ?? '')) html = false;
        else if ((answer.headers['content-encoding'] ?? 'identity') !== encoding)
          throw new Error(`${urlPath}: still not answered in ${encoding} on a second request`);
        fs.writeFileSync(path.join(www, 'p', `${index}${SUFFIX[encoding]}`), answer.body, { mode: 0o644 });
      }
      (html ? kept : skipped).push(urlPath);
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  return { kept, skipped };
}

/** One keep-alive GET or PUT with a JSON body; status and time taken. */
function send(
  agent: http.Agent,
  origin: string,
  method: string,
  urlPath: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<{ status: number; ms: number }> {
  const target = new URL(origin);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const request = http.request(
      { agent, host: target.hostname, port: target.port, method, path: urlPath, headers },
      (response) => {
        response.resume();
        response.on('end', () => resolve({ status: response.statusCode ?? 0, ms: performance.now() - started }));
      },
    );
    request.setTimeout(30_000, () => request.destroy(new Error('no answer in 30 s')));
    request.on('error', reject);
    request.end(body);
  });
}

const pct = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : NaN;
};
const us = (seconds: number, requests: number) => (requests > 0 ? (seconds / requests) * 1e6 : NaN);
const f0 = (n: number) => n.toFixed(0);
const f2 = (n: number) => n.toFixed(2);
const meets = (ok: boolean) => (ok ? 'met' : 'MISSED');

async function main(): Promise<void> {
  requireBuild();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'study-wrk-'));
  let memory: MemorySampler | null = null;
  try {
    const databasePath = await generateComparedSite(dir, ARTICLES, ADMIN);
    const { db, sqlite } = openDatabase(databasePath, { readOnly: true });
    const allPaths = await listPublicUrls(db);
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
    const www = path.join(dir, 'www');
    fs.chmodSync(dir, 0o755);
    const copyStarted = Date.now();
    sampler.phase('every page read once in each encoding');
    const { kept, skipped } = await copyPagesForNginx(port, allPaths, www);
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

    const loads: Array<{ name: string; ours: string[]; nginx: string[] }> = [];
    for (const encoding of ENCODINGS) {
      const oursScript = path.join(dir, `zipf-ours-${encoding}.lua`);
      const nginxScript = path.join(dir, `zipf-nginx-${encoding}.lua`);
      zipfScript(oursScript, kept, encoding);
      zipfScript(
        nginxScript,
        kept.map((p) => `/p/${indexOf.get(p)}`),
        encoding,
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
      });
    // wrk's URL argument comes last: the path goes in it, not after `--`.
    const argsOf = (args: string[], origin: string): { args: string[]; origin: string } =>
      args[args.length - 2] === '--' ? { args: args.slice(0, -2), origin: origin + args[args.length - 1] } : { args, origin };

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
      const entry = { name: load.name, ours: [] as WrkRun[], nginx: [] as WrkRun[] };
      for (let round = 0; round < ROUNDS; round++) {
        const o = argsOf(load.ours, oursOrigin);
        entry.ours.push(await runWrk(o.origin, o.args, serverPid));
        const n = argsOf(load.nginx, nginxOrigin);
        entry.nginx.push(await runWrk(n.origin, n.args, nginxPid));
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
    const phaseRun = async (name: string, during: (until: () => boolean) => Promise<void>) => {
      sampler.phase(name);
      const o = argsOf(randomLoad.ours, oursOrigin);
      let running = true;
      const side = during(() => running);
      const readers = await runWrk(o.origin, o.args, serverPid, PHASE_SECONDS);
      running = false;
      await side;
      return readers;
    };
    const saves: number[] = [];
    const saveStatuses = new Map<number, number>();
    let edit = 0;
    const withWriter = await phaseRun('readers + a writer saving titles', async (going) => {
      while (going()) {
        const id = editIds[edit % editIds.length]!;
        const body = { ...bodies.get(id)!, title: `Edited title ${edit++} of ${id}` };
        const answer = await send(
          agent,
          site.origin,
          'PUT',
          `/api/blogs/${id}`,
          { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          JSON.stringify(body),
        );
        saves.push(answer.ms);
        saveStatuses.set(answer.status, (saveStatuses.get(answer.status) ?? 0) + 1);
      }
    });
    const words = ['study', 'notes', 'exam method', 'theory', 'summary', 'revison', 'formula', 'practice', 'chapter', 'lesson'];
    const searchStatuses = new Map<number, number>();
    let searches = 0;
    const withSearch = await phaseRun('readers + 8 connections searching from 8 addresses', async (going) => {
      await Promise.all(
        Array.from({ length: 8 }, async (_, i) => {
          for (let n = 0; going(); n++) {
            const text = words[(i + n) % words.length]!;
            const answer = await send(
              agent,
              site.origin,
              'GET',
              `/blogs?search=${encodeURIComponent(text)}&page=${1 + (n % 5)}`,
              {
                'x-forwarded-for': `198.51.100.${i + 1}`,
                'accept-encoding': 'br',
              },
            );
            searches++;
            searchStatuses.set(answer.status, (searchStatuses.get(answer.status) ?? 0) + 1);
          }
        }),
      );
    });
    sampler.phase('idle, at the end');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    sampler.stop();
    const statuses = (map: Map<number, number>) => [...map].map(([s, n]) => `${s}: ${n}`).join(', ');
    console.log(`\nReaders (random pages, ${randomLoad.name.split(', ').at(-1)}) alone ${f0(readersAlone)} req/s (median above)`);
    console.log(
      `  with a writer: ${f0(withWriter.rps)} req/s = ${f2(withWriter.rps / readersAlone)}x (load ${f2(withWriter.load)}); ` +
        `${saves.length} saves, p50 ${f0(pct(saves, 50))} ms, p95 ${f0(pct(saves, 95))} ms (statuses ${statuses(saveStatuses)})`,
    );
    console.log(
      `  with 8 searchers: ${f0(withSearch.rps)} req/s = ${f2(withSearch.rps / readersAlone)}x (target >= ${TARGETS.searchReaders}x: ` +
        `${meets(withSearch.rps / readersAlone >= TARGETS.searchReaders)}; one run, load ${f2(withSearch.load)}); ${searches} searches (statuses ${statuses(searchStatuses)})`,
    );

    console.log(
      `\nMemory of the server's processes (RSS, sampled every 200 ms), peak by phase; budget < ${MEMORY_BUDGET_MB} MB for all together`,
    );
    for (const phase of sampler.phases) {
      const each = [...phase.peakEach].map(([pid, mb]) => `${pid === serverPid ? 'first' : pid} ${f0(mb)}`).join(', ');
      console.log(
        `  ${phase.name.padEnd(52)} ${f0(phase.peakTotal).padStart(5)} MB ${meets(phase.peakTotal < MEMORY_BUDGET_MB)}  (each process's peak, MB: ${each})`,
      );
    }
    // The kernel's own peak of each process since it started, which no sample can miss.
    const highWater = processTree(serverPid).map((pid) => {
      const kb = /VmHWM:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
      return { pid, mb: Number(kb ?? 0) / 1024 };
    });
    console.log(
      `  high-water mark of each process (VmHWM, MB): ${highWater.map(({ pid, mb }) => `${pid === serverPid ? 'first' : pid} ${f0(mb)}`).join(', ')}; ` +
        `sum ${f0(highWater.reduce((sum, { mb }) => sum + mb, 0))} (the peaks need not coincide)`,
    );
    console.log(`\nLoad average after: ${loadAverage()}`);
  } finally {
    memory?.stop();
    await stopChildren();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
