import type { RefreshProgress } from '../context.ts';
import type { RefreshQueue } from '../page-store/refresh-queue.ts';
import { shareBackgroundRefresh, type BackgroundRefresh, type RefreshShareNews } from '../page-store/refresh-share.ts';
import { sumRefreshStatuses, throttledTeller, type ProcessRefreshStatus } from '../page-store/refresh-status.ts';
import type { SiblingChannel } from './sibling-news.ts';

/** How often at most a process tells its siblings how its background refresh moves. */
const REFRESH_TELL_MS = 250;

/**
 * The background refresh across the serving processes: a change's stale pages are shared out to
 * every process's render workers (`refresh-share`), and each process tells the others how its
 * queue moves (`refresh-status`), so the admin's progress is the whole server's from either.
 */
export function shareRefreshWithSiblings(
  siblings: SiblingChannel,
  queue: RefreshQueue,
  here: {
    /** Whether siblings exist: alone, nothing is told and every page is refreshed here. */
    inCluster: boolean;
    index: number;
    processes: number;
    /** Pages this process's render workers rendered since it started. */
    rendered: () => number;
    /** Of those, pages whose header and footer, or top-viewed list, were patched instead. */
    patched: () => number;
    /** Of those patched, pages whose renamed categories' new names were written in. */
    renamed: () => number;
    syncVersions: () => void;
    /** Calls its listener whenever `rendered` (and so maybe `patched`, `renamed`) moved. */
    onRendered: (listener: () => void) => void;
  },
): { background: BackgroundRefresh; status: () => RefreshProgress } {
  const own = (): ProcessRefreshStatus => ({
    ...queue.status(),
    renderedByWorkers: here.rendered(),
    patchedByWorkers: here.patched(),
    renamedByWorkers: here.renamed(),
  });
  const told = new Map<number, ProcessRefreshStatus>();
  const background = shareBackgroundRefresh(queue, {
    index: here.index,
    processes: here.processes,
    tell: here.inCluster ? (news) => siblings.tell('refresh-share', news) : null,
    syncVersions: here.syncVersions,
  });
  if (here.inCluster) {
    const tellOwn = () => siblings.tell('refresh-status', own());
    const tellSoon = throttledTeller(tellOwn, REFRESH_TELL_MS);
    queue.onChange(tellSoon);
    // Renders outside the queue (a save's hot pages, a reader's miss, the encodings readers ask
    // for) move the counts too: untold, a sibling's admin status lagged behind them until this
    // queue next moved. Told once the render's answer was taken, which counts its patches.
    here.onRendered(() => setImmediate(tellSoon));
    siblings.listen('refresh-status', (payload, from) => told.set(from, payload as ProcessRefreshStatus));
    siblings.listen('refresh-share', (news) => background.take(news as RefreshShareNews));
    // A process started in a dead one's place asks what its siblings know; the dead one's queue
    // died with it, so what it told is forgotten.
    siblings.listen('hello', (_payload, from) => {
      told.delete(from);
      tellOwn();
    });
  }
  return { background, status: () => sumRefreshStatuses(own(), told.values()) };
}
