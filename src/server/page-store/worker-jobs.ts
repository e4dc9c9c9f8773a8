import type { RenderPriority } from './render-pool.ts';

/**
 * The jobs inside one render worker, run one at a time: a page a reader or a save waits for
 * ('now') before the background refresh and the pre-render. Renders are CPU work with no I/O to
 * overlap, so running several at once only made the urgent one share the thread with the
 * background jobs the pool had already handed over (measured: a save's four hot pages took
 * 50-110 ms instead of 25).
 */
export function createJobRunner<J extends { priority?: RenderPriority }>(
  run: (job: J) => Promise<void>,
  /** Which lane a job waits in, lowest first (default: `now` 0, `background` 1). */
  laneOf: (job: J) => number = (job) => (job.priority === 'background' ? 1 : 0),
  /** Called each time the last job handed over has run. */
  onDrained: () => void = () => undefined,
): (job: J) => void {
  const lanes: J[][] = [];
  let running = false;
  const next = () => lanes.find((lane) => lane.length > 0)?.shift();
  const drain = async () => {
    running = true;
    for (let job = next(); job; job = next()) {
      await run(job).catch(() => undefined);
      // A render is all microtasks: without a turn of the event loop here, a job posted meanwhile
      // (a message) would only arrive once every job already handed over had run.
      await new Promise((resolve) => setImmediate(resolve));
    }
    running = false;
    onDrained();
  };
  return (job) => {
    const lane = laneOf(job);
    for (let i = lanes.length; i <= lane; i++) lanes.push([]);
    lanes[lane]!.push(job);
    if (!running) void drain();
  };
}
