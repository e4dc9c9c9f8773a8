// One run of `wrk` (Debian's package) and the figures read from its output, with the CPU time the
// server spent over the run; the Lua script that draws pages by Zipf's law.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import { childrenCpuFromTimes, cpuSecondsOf, processTree } from './site.ts';

export interface WrkRun {
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

export interface WrkOptions {
  /** The wrk command. */
  wrk: string;
  threads: number;
  connections: number;
  /** How long a run lasts unless the call says otherwise. */
  seconds: number;
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
export function runWrk(
  options: WrkOptions,
  origin: string,
  args: string[],
  serverPid: number,
  seconds = options.seconds,
): Promise<WrkRun> {
  const all = [
    `-t${options.threads}`,
    `-c${options.connections}`,
    `-d${seconds}s`,
    '--timeout',
    '10s',
    '--latency',
    ...args,
    origin,
  ];
  const quoted = all.map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  const tree = processTree(serverPid);
  const cpuBefore = cpuSecondsOf(tree);
  return new Promise((resolve, reject) => {
    execFile('bash', ['-c', `${options.wrk} ${quoted}; times`], { timeout: (seconds + 60) * 1000 }, (error, stdout) => {
      const serverCpu = cpuSecondsOf(tree) - cpuBefore;
      const load = os.loadavg()[0]!;
      if (error) return reject(new Error(`wrk ${all.join(' ')} failed: ${error.message}\n${stdout}`));
      const requests = Number(/(\d+) requests in/.exec(stdout)?.[1] ?? NaN);
      if (!Number.isFinite(requests)) return reject(new Error(`Unreadable wrk output:\n${stdout}`));
      if (!/^\s+50%\s+[\d.]+(us|ms|s|m)\s/m.test(stdout)) console.log(`(wrk's latency figures unreadable:\n${stdout})`);
      const wrkCpu = childrenCpuFromTimes(stdout);
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

/** wrk's URL argument comes last: a load's path given after `--` goes into it. */
export const argsOf = (args: string[], origin: string): { args: string[]; origin: string } =>
  args[args.length - 2] === '--' ? { args: args.slice(0, -2), origin: origin + args[args.length - 1] } : { args, origin };

/**
 * The random readers' script: a page drawn by Zipf's law (weight 1/rank^s) over `paths`, ranked as
 * the site lists them (home, /blogs, the static pages, categories, newest articles first, later
 * list pages last). Each thread has its own seed, the same for both contenders.
 */
export function zipfScript(file: string, paths: string[], encoding: string, zipfS: number): void {
  fs.writeFileSync(
    file,
    `local paths = { ${paths.map((p) => JSON.stringify(p)).join(',\n')} }
local n = #paths
local cdf = {}
local acc = 0
for i = 1, n do acc = acc + 1 / (i ^ ${zipfS}); cdf[i] = acc end
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
