import os from 'node:os';
import type { RenderPriority } from './render-pool.ts';

/**
 * A render worker's CPU priority (Linux keeps a nice value per thread: these calls change only the
 * calling thread's). The worker runs at a raised nice value so readers of stored pages win the CPU
 * over the background refresh and the pre-render; a render someone waits for (a reader's miss, a
 * save's hot page) runs at `HURRY_NICE` when the thread may lower its value that far, else at
 * nice 0. Lowering needs CAP_SYS_NICE (root outside a container) or an RLIMIT_NICE that allows it
 * (systemd's LimitNICE=); without it every render stays at the raised value. At nice 0 a save's
 * render shared the cores with every serving thread flat out and took their pace: with 64 readers
 * on random pages, a save was live after 97 ms at the median and 210 ms at p95 (target < 100).
 */
export interface WorkerPriority {
  /** The nice value renders someone waits for run at on this thread; null: they stay at the worker's. */
  readonly hurryNice: number | null;
  /** Whether renders someone waits for run below the worker's nice value on this thread. */
  readonly canHurry: boolean;
  run<T>(priority: RenderPriority, render: () => Promise<T>): Promise<T>;
}

/** Sets the calling thread's nice value to `nice` and says how its renders are run. */
/**
 * Above the serving threads (nice 0), for the few milliseconds of a render a person waits for:
 * CFS then gives the render about three times a serving thread's share of a busy core.
 */
export const HURRY_NICE = -5;

export function workerPriority(
  nice: number,
  setPriority: (value: number) => void = (value) => os.setPriority(value),
): WorkerPriority {
  const attempt = (value: number) => {
    try {
      setPriority(value);
      return true;
    } catch {
      return false;
    }
  };
  // Not allowed: renders then compete with readers on equal terms.
  const niced = nice > 0 && attempt(nice);
  // Lowering it again is the privileged direction: tried once, then put back.
  const hurryNice = !niced ? null : attempt(HURRY_NICE) ? HURRY_NICE : attempt(0) ? 0 : null;
  if (hurryNice !== null) attempt(nice);
  return {
    hurryNice,
    canHurry: hurryNice !== null,
    async run(priority, render) {
      if (hurryNice === null || priority !== 'now') return render();
      attempt(hurryNice);
      try {
        return await render();
      } finally {
        attempt(nice);
      }
    },
  };
}
