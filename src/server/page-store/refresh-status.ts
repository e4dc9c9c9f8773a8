import type { RefreshStatus } from './refresh-queue.ts';

/** One serving process's background refresh, as it tells its siblings. */
export interface ProcessRefreshStatus extends RefreshStatus {
  /** Pages its render workers rendered since it started. */
  renderedByWorkers: number;
  /** Of those, pages whose header and footer or top-viewed list were patched instead of rendered (chrome-patch.ts, block-patch.ts). */
  patchedByWorkers: number;
  /** Of those patched, pages whose renamed categories' new names were written in (category-name-patch.ts). */
  renamedByWorkers: number;
}

/**
 * The whole server's background refresh, for the admin. A change's stale pages are refreshed by
 * every serving process, each its share (refresh-share.ts), so a process alone knows only its own
 * part: the admin's "N pages refreshed" (and a benchmark waiting for the queue to drain) would
 * depend on which process the request reached. Pages waiting anywhere count; the refreshed pages and the seconds
 * are the latest change's; the render counts add up.
 */
export function sumRefreshStatuses(
  own: ProcessRefreshStatus,
  others: Iterable<ProcessRefreshStatus>,
  now = Date.now(),
): Omit<ProcessRefreshStatus, 'changedAt'> {
  const all = [own, ...others];
  const latest = all.reduce((a, b) => (b.changedAt > a.changedAt ? b : a));
  const queued = all.reduce((sum, status) => sum + status.queued, 0);
  const ofLatest = all.filter((status) => status.changedAt === latest.changedAt);
  return {
    queued,
    refreshedSinceLastChange: ofLatest.reduce((sum, status) => sum + status.refreshedSinceLastChange, 0),
    // Still running somewhere: counted until now, as a process counts its own queue.
    seconds: queued > latest.queued ? Math.round((now - latest.changedAt) / 100) / 10 : latest.seconds,
    renderedByWorkers: all.reduce((sum, status) => sum + status.renderedByWorkers, 0),
    patchedByWorkers: all.reduce((sum, status) => sum + status.patchedByWorkers, 0),
    renamedByWorkers: all.reduce((sum, status) => sum + status.renamedByWorkers, 0),
  };
}

/**
 * Calls `tell` at once when it has not for `intervalMs`, else once when that interval ends: a
 * refresh moves its figures on every page, and siblings need them a few times a second, not 100.
 */
export function throttledTeller(tell: () => void, intervalMs: number): () => void {
  let last = -Infinity;
  let timer: NodeJS.Timeout | null = null;
  return () => {
    if (timer) return;
    const wait = last + intervalMs - performance.now();
    if (wait <= 0) {
      last = performance.now();
      tell();
      return;
    }
    timer = setTimeout(() => {
      timer = null;
      last = performance.now();
      tell();
    }, wait);
    timer.unref();
  };
}
