import fs from 'node:fs';
import path from 'node:path';

/**
 * Crash detection for the page store.
 *
 * A write commits to the site database first and bumps its tags in the page store a moment later.
 * A process killed between the two (kill -9, the OOM killer, a power cut) leaves stored pages that
 * look fresh but show the data from before that write, and nothing would ever refresh them. So
 * every process that opens the store leaves a marker file and removes it on a clean close; a
 * marker whose process is gone means the last run died, and the next start drops the stored
 * pages (a cache: they are rendered again on demand and by the start-up pre-render).
 */
const PREFIX = 'running-';

interface Marker {
  pid: number;
  bootId: string;
}

export interface RunMarker {
  /** True when an earlier process died with the store open. */
  previousRunCrashed: boolean;
  /** Removes this process's marker: call it after the store is closed cleanly. */
  release: () => void;
}

/** Changes at every boot, so a marker from before a reboot never passes for a live process. */
function readBootId(): string {
  try {
    return fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  } catch {
    return '';
  }
}

function isAlive(marker: Marker, bootId: string): boolean {
  // The same pid as ours is an earlier incarnation (a container's pid 1 restarts as pid 1).
  if (marker.bootId !== bootId || marker.pid === process.pid) return false;
  try {
    process.kill(marker.pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  return !isZombie(marker.pid);
}

/**
 * A killed process whose parent died too waits for PID 1 to reap it, and a container's PID 1 that
 * is not an init (`docker run` without `--init`) never does: it still answers signal 0. Its state
 * in /proc says it is dead. (Where /proc cannot be read, it counts as alive, as before.)
 */
function isZombie(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) === 'Z';
  } catch {
    return false;
  }
}

function readMarker(file: string): Marker | null {
  try {
    const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<Marker>;
    return typeof parsed.pid === 'number' && typeof parsed.bootId === 'string'
      ? { pid: parsed.pid, bootId: parsed.bootId }
      : null;
  } catch {
    // A marker cut short by a crash while it was being written: its process is gone.
    return null;
  }
}

/**
 * Records that this process has the store in `dir` open, and tells whether an earlier one died
 * with it open. Dead processes' markers are removed; live ones (another process sharing the
 * store) are left alone.
 */
export function markStoreOpen(dir: string): RunMarker & { othersRunning: number } {
  fs.mkdirSync(dir, { recursive: true });
  const bootId = readBootId();
  let previousRunCrashed = false;
  let othersRunning = 0;
  for (const name of fs.readdirSync(dir)) {
    if (!name.startsWith(PREFIX)) continue;
    const file = path.join(dir, name);
    const marker = readMarker(file);
    if (marker && isAlive(marker, bootId)) {
      othersRunning++;
      continue;
    }
    previousRunCrashed = true;
    fs.rmSync(file, { force: true });
  }
  const own = path.join(dir, `${PREFIX}${process.pid}`);
  fs.writeFileSync(own, JSON.stringify({ pid: process.pid, bootId } satisfies Marker));
  let released = false;
  return {
    previousRunCrashed,
    othersRunning,
    release: () => {
      if (released) return;
      released = true;
      fs.rmSync(own, { force: true });
    },
  };
}

/** The pids of live processes that have the store in `dir` open (the restore refuses to run beside them). */
export function findRunningPids(dir: string): number[] {
  if (!fs.existsSync(dir)) return [];
  const bootId = readBootId();
  const pids: number[] = [];
  for (const name of fs.readdirSync(dir)) {
    if (!name.startsWith(PREFIX)) continue;
    const marker = readMarker(path.join(dir, name));
    if (marker && marker.pid !== process.pid && isAlive(marker, bootId)) pids.push(marker.pid);
  }
  return pids;
}
