/**
 * The pace the background refresh is held to, in pages a second for the whole server (each
 * serving process its share): ahead of it the render workers run in the machine's idle time only
 * (thread-idle.ts), behind it at their nice value, so it goes no slower than at nice 10 alone
 * could. The readers' share while it runs is about 1 - (the refresh's CPU) / (2 cores x its
 * length), so a slower pace leaves them more, and a rename at 10,000 articles (31,700 pages) must
 * still drain in under 60 s: with 32 readers it drained in 32-33 s and left them 0.57-0.58 of their
 * throughput unpaced, 45-48 s and 0.66-0.70 at 640 pages/s, 53 s and 0.71-0.72 at 560. Readers
 * that take both cores (wrk) leave the workers at nice 10 a tenth of a core, paced or not.
 */
export const REFRESH_MIN_PAGES_PER_SECOND = 560;

/** The first second of a refresh: a change's hot pages go first, and the background is held (site.ts). */
export const PACE_GRACE_SECONDS = 1;

/** How often a running refresh is held to its pace. */
export const PACE_CHECK_MS = 250;

/**
 * Whether a refresh has done the pages its pace asks by now: `refreshed` pages in `seconds` since
 * it started (`pagesPerSecond` is this process's).
 */
export function refreshOnPace(refreshed: number, seconds: number, pagesPerSecond: number): boolean {
  return refreshed >= pagesPerSecond * Math.max(0, seconds - PACE_GRACE_SECONDS);
}

export interface PacedQueue {
  queued(): number;
  /** Pages refreshed since the queue was made; never goes back. */
  refreshedInAll(): number;
  onChange(listener: () => void): void;
}

export interface PacedWorkers {
  backgroundInIdleTime(on: boolean): void;
}

/**
 * Holds this process's background refresh to `pagesPerSecond`: while it has pages queued it is
 * looked at every `checkMs`, and its workers run in idle time only while it is on pace. Once it
 * drains they are back at their share (a pre-render, or a reader's miss, never waits on idle
 * time). Returns a function that stops it.
 *
 * The pace counts from when the queue last filled, not from the latest change: changes that come
 * faster than the grace (an import, a script seeding a site) would otherwise keep the refresh on
 * pace forever with nothing done, in idle time that a busy machine never has.
 */
export function paceRefresh(
  queue: PacedQueue,
  workers: PacedWorkers,
  pagesPerSecond: number,
  checkMs = PACE_CHECK_MS,
  now: () => number = () => performance.now(),
): () => void {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let startedAt = 0;
  let refreshedBefore = 0;
  const check = () => {
    if (queue.queued() > 0) {
      const seconds = (now() - startedAt) / 1000;
      workers.backgroundInIdleTime(refreshOnPace(queue.refreshedInAll() - refreshedBefore, seconds, pagesPerSecond));
      return;
    }
    workers.backgroundInIdleTime(false);
    clearInterval(timer);
    timer = undefined;
  };
  // Called for every page queued or refreshed: only starts the timer, and with it the pace.
  queue.onChange(() => {
    if (stopped || timer || queue.queued() === 0) return;
    startedAt = now();
    refreshedBefore = queue.refreshedInAll();
    timer = setInterval(check, checkMs);
    timer.unref();
    check();
  });
  return () => {
    stopped = true;
    clearInterval(timer);
    timer = undefined;
    workers.backgroundInIdleTime(false);
  };
}
