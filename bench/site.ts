// What both benchmarks share: the built server started on a generated site, its figures from
// /proc, and the admin's session and write bodies for the edits they time.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { blogBodyFrom, type Json } from '../tests/support/builders.ts';
import { COMPILED_MAIN } from '../scripts/server-entry.mjs';
import type { PageRefreshStatus } from '../src/shared/api-types/answers.ts';

export { processTree } from '../tests/support/processes.ts';

export const root = path.resolve(import.meta.dirname, '..');
export const distDir = path.resolve(root, process.env.DIST_DIR || 'dist');

export interface Admin {
  email: string;
  password: string;
}

export interface Started {
  child: ChildProcess;
  origin: string;
  output: () => string;
}

const started = new Set<ChildProcess>();

/**
 * Stops `child` with the benchmark when it is interrupted (Ctrl-C, SIGTERM): a server, nginx or
 * Hugo left running would hold its port, its CPU and its temporary site after the benchmark ended.
 * Returns the child.
 */
export function stopOnInterrupt<T extends ChildProcess>(child: T): T {
  if (started.size === 0)
    for (const signal of ['SIGINT', 'SIGTERM'] as const)
      process.once(signal, () => {
        for (const running of started) running.kill('SIGTERM');
        console.error(`\n${signal}: the benchmark stopped, and the ${started.size} process(es) it started with it`);
        process.exit(130);
      });
  started.add(child);
  child.once('exit', () => started.delete(child));
  return child;
}

/** The production server as `npm start` runs it: compiled by the build. */
export const SERVER_MAIN = path.join(distDir, COMPILED_MAIN);

/** The middle value (the upper one of an even count): what every benchmark reports of its rounds. */
export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export function requireBuild(): void {
  if (!fs.existsSync(path.join(distDir, 'server/entry.mjs')) || !fs.existsSync(SERVER_MAIN))
    throw new Error('Run `npm run build` first.');
}

/** The environment of a production server on a free loopback port, over the given data folder. */
export function siteEnv(dir: string, databasePath: string, admin: Admin): Record<string, string> {
  return {
    HOST: '127.0.0.1',
    PORT: '0',
    DATABASE_PATH: databasePath,
    UPLOADS_DIR: path.join(dir, 'uploads'),
    PAGE_STORE_DIR: path.join(dir, 'pages'),
    SEED_DEMO: 'false',
    ADMIN_EMAIL: admin.email,
    ADMIN_PASSWORD: admin.password,
    NODE_ENV: 'production',
    DIST_DIR: distDir,
  };
}

/** Spawns a Node script and resolves once it printed its address and its output matches `ready`. */
export function startProcess(
  args: string[],
  env: Record<string, string>,
  ready: RegExp,
): { child: ChildProcess; started: Promise<Started> } {
  const child = stopOnInterrupt(
    spawn(process.execPath, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] }),
  );
  let output = '';
  const started = new Promise<Started>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const origin = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
      if (origin && ready.test(output)) resolve({ child, origin, output: () => output });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}\n${output}`)));
  });
  return { child, started };
}

/**
 * Resident memory of a process and all its descendants in MB, from /proc: the server is a cluster
 * (WEB_PROCESSES) whose first process only watches the serving ones.
 */
export function rssMb(pid: number): number {
  let kb = 0;
  try {
    kb = Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
    for (const task of fs.readdirSync(`/proc/${pid}/task`)) {
      const kids = fs.readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
      for (const kid of kids ? kids.split(' ') : []) kb += rssMb(Number(kid)) * 1024;
    }
  } catch {
    // The process ended meanwhile.
  }
  return kb / 1024;
}

/** Logs the admin in over the API and returns the bearer token. */
export async function logInAdmin(origin: string, admin: Admin): Promise<string> {
  const login = await fetch(`${origin}/api/users/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(admin),
  });
  if (!login.ok) throw new Error(`Admin login failed: ${login.status} ${await login.text()}`);
  return ((await login.json()) as { token: string }).token;
}

/** The background refresh's progress, summed over every serving process (the admin's status). */
export async function refreshStatus(origin: string, token: string): Promise<PageRefreshStatus> {
  const answer = await fetch(`${origin}/api/admin/page-refresh`, { headers: { authorization: `Bearer ${token}` } });
  if (!answer.ok) throw new Error(`Refresh status failed: ${answer.status} ${await answer.text()}`);
  return (await answer.json()) as PageRefreshStatus;
}

/** The write bodies (PUT /api/blogs/:id) that keep each blog as it is, for timed edits of its title. */
export async function fetchWriteBodies(origin: string, ids: number[]): Promise<Map<number, Json>> {
  const bodies = new Map<number, Json>();
  for (const id of ids) bodies.set(id, blogBodyFrom((await (await fetch(`${origin}/api/blogs/${id}`)).json()) as Json));
  return bodies;
}

/** A process's resident memory in MB (0 once it is gone). */
export function processRssMb(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

/** Clock ticks a second of /proc/<pid>/stat's times (USER_HZ: 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** CPU time (user + system, every thread) a process has used so far, in seconds; 0 once it is gone. */
/** The kernel's peak resident memory of one process since it started (VmHWM), in MB. */
export function highWaterMb(pid: number): number {
  try {
    return Number(/VmHWM:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

/** User + system CPU seconds of these processes together (a server's tree, read once with processTree). */
export function cpuSecondsOf(pids: number[]): number {
  return pids.reduce((sum, pid) => sum + processCpuSeconds(pid), 0);
}

/** The CPU seconds of the children of a `bash -c '...; times'`: the last of the two lines `times` prints. */
export function childrenCpuFromTimes(stdout: string): number {
  const times = [...stdout.matchAll(/(\d+)m([\d.]+)s (\d+)m([\d.]+)s/g)].at(-1);
  return times ? Number(times[1]) * 60 + Number(times[2]) + Number(times[3]) * 60 + Number(times[4]) : NaN;
}

export function processCpuSeconds(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command (which may hold spaces), from field 3 on: utime is 14th, stime 15th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}
