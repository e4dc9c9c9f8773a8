import type { Worker } from 'node:worker_threads';

/**
 * A worker thread's CPU time so far, in ms, where this Node can tell (worker.cpuUsage, Node
 * 22.19+); null elsewhere. A time limit judged by it stops a runaway job, not one that only waited
 * for a core on a machine busy with other work.
 */
export async function threadCpuMs(worker: Worker): Promise<number | null> {
  const usage = (worker as { cpuUsage?: () => Promise<{ user: number; system: number }> }).cpuUsage;
  if (typeof usage !== 'function') return null;
  try {
    const { user, system } = await usage.call(worker);
    return (user + system) / 1000;
  } catch {
    // The thread is gone: its job is judged by the clock.
    return null;
  }
}
