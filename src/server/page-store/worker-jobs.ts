import type { RenderPriority } from './render-pool.ts';

/**
 * The jobs inside one render worker, run one at a time: a page a reader or a save waits for
 * ('now') before the background refresh and the pre-render. Renders are CPU work with no I/O to
 * overlap, so running several at once only made the urgent one share the thread with the
 * background jobs the pool had already handed over (measured: a save's four hot pages took
 * 50-110 ms instead of 25).
 */
export function createJobRunner<J extends { priority?: RenderPriority }>(run: (job: J) => Promise<void>): (job: J) => void {
  const now: J[] = [];
  const background: J[] = [];
  let running = false;
  const drain = async () => {
    running = true;
    for (let job = now.shift() ?? background.shift(); job; job = now.shift() ?? background.shift()) {
      await run(job).catch(() => undefined);
      // A render is all microtasks: without a turn of the event loop here, a job posted meanwhile
      // (a message) would only arrive once every job already handed over had run.
      await new Promise((resolve) => setImmediate(resolve));
    }
    running = false;
  };
  return (job) => {
    (job.priority === 'background' ? background : now).push(job);
    if (!running) void drain();
  };
}
