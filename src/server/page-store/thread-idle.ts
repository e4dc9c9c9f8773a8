// A render worker's thread run in the machine's idle time only (Linux's SCHED_IDLE) while the
// background refresh is ahead of its pace (refresh-pace.ts). At nice 10, or even 19, a rename's
// refresh took 0.42-0.45 of the readers' throughput away while it ran (10,000 articles, 2
// processes, 32 readers): a serving thread woken while a patch ran waited for it. A thread in
// SCHED_IDLE gives way at once to any other that wakes: the same refresh in idle time alone left
// readers their whole throughput, and took 133 s instead of 30.
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';

/** Puts one thread of this process in idle time only, or back; true when done. */
export type ThreadIdler = (tid: number, idle: boolean) => boolean;

/** `setIdle` from <dist>/native/thread-idle.node (thread-idle.c), or null when the build could not make it. */
export function loadThreadIdler(distDir: string): ThreadIdler | null {
  const file = path.join(distDir, 'native', 'thread-idle.node');
  if (!fs.existsSync(file)) return null;
  try {
    const native = createRequire(import.meta.url)(file) as { setIdle?: unknown };
    if (typeof native.setIdle !== 'function') return null;
    const setIdle = native.setIdle as (tid: number, idle: boolean) => number;
    return (tid, idle) => setIdle(tid, idle) === 0;
  } catch {
    // Built for another system (a copied dist/): run without it.
    return null;
  }
}

/** The calling thread's id in the kernel's terms (what `ThreadIdler` takes), or null off Linux. */
export function kernelThreadId(): number | null {
  try {
    const tid = Number(fs.readlinkSync('/proc/thread-self').split('/').pop());
    return Number.isInteger(tid) && tid > 0 ? tid : null;
  } catch {
    return null;
  }
}
