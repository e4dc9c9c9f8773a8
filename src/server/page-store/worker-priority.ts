import os from 'node:os';
import type { RenderPriority } from './render-pool.ts';

/**
 * A render worker's CPU priority (Linux keeps a nice value per thread: these calls change only the
 * calling thread's). The worker runs at a raised nice value so readers of stored pages win the CPU
 * over the background refresh and the pre-render; a render someone waits for (a reader's miss, a
 * save's hot page) runs at nice 0 when the thread may lower its value again. That needs
 * CAP_SYS_NICE (root outside a container) or an RLIMIT_NICE that allows it (systemd's LimitNICE=);
 * without it every render stays at the raised value. Measured on the 2-core machine with other
 * work at nice 0 (load 8): publish-to-live p50 58-63 ms against 51-96 ms, p95 173-264 against
 * 292-421 ms, side by side.
 */
export interface WorkerPriority {
  /** Whether renders someone waits for run at nice 0 on this thread. */
  readonly canHurry: boolean;
  run<T>(priority: RenderPriority, render: () => Promise<T>): Promise<T>;
}

/** Sets the calling thread's nice value to `nice` and says how its renders are run. */
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
  const canHurry = niced && attempt(0) && attempt(nice);
  return {
    canHurry,
    async run(priority, render) {
      if (!canHurry || priority !== 'now') return render();
      attempt(0);
      try {
        return await render();
      } finally {
        attempt(nice);
      }
    },
  };
}
