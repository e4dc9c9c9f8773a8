// A render worker's heap handed back to the system once it has nothing to do. A worker that
// rendered held about 25 MB more than an idle one until it rested (60 s by default), because V8
// keeps the pages it grew while the garbage it holds is young or not yet worth a collection. One
// full collection when the jobs drain (V8's "last resort" kind, which also shrinks the young
// space) gives it back; a worker that only waits pays nothing.
import v8 from 'node:v8';
import vm from 'node:vm';

/** V8's most thorough collection, run now on the calling thread. */
export type FullCollection = () => void;

type GcFunction = (options: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;

/**
 * V8's `gc` for the calling thread, or null when this Node does not offer it. The flag is set for
 * the process, but only a context made after it (the one here) gets the function: the worker's own
 * code never sees a global `gc`.
 */
export function loadFullCollection(): FullCollection | null {
  try {
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as unknown;
    if (typeof gc !== 'function') return null;
    return () => (gc as GcFunction)({ type: 'major', execution: 'sync', flavor: 'last-resort' });
  } catch {
    return null;
  }
}

export interface IdleCollection {
  /** A job came: no collection until the jobs drain again. */
  busy(): void;
  /** The jobs drained: collect after `delayMs` unless a job comes first. */
  idle(): void;
  stop(): void;
}

/**
 * Runs `collect` once per quiet spell: `delayMs` after the jobs drain, so a burst of jobs (a save's
 * pages, a refresh with gaps) does not pay a full collection between each.
 */
export function idleCollection(collect: FullCollection, delayMs: number): IdleCollection {
  let timer: NodeJS.Timeout | null = null;
  let owed = false;
  const cancel = () => {
    if (timer) clearTimeout(timer);
    timer = null;
  };
  return {
    busy() {
      cancel();
      owed = true;
    },
    idle() {
      cancel();
      if (!owed) return;
      timer = setTimeout(() => {
        timer = null;
        owed = false;
        collect();
      }, delayMs);
      // The worker's life is its port: a pending collection never keeps it up.
      timer.unref();
    },
    stop: cancel,
  };
}
