import type { RefreshQueue } from './refresh-queue.ts';

/** A change's stale pages, as the process that made the change tells its siblings. */
export interface RefreshShareNews {
  keys: string[];
  /** When the change was (Date.now()), so every process's figures count from the same moment. */
  changedAt: number;
}

/** Where this process stands among the serving processes. */
export interface RefreshSharePlace {
  /** This process's index, 0 to `processes - 1`. */
  index: number;
  processes: number;
  /** Tells every sibling; null when this process serves alone. */
  tell: ((news: RefreshShareNews) => void) | null;
  /**
   * Looks at the store's file for the change's tag versions before a sibling's share is queued,
   * so none of its pages is judged fresh by versions a few ms old (`PageStore.syncVersions`).
   */
  syncVersions: () => void;
}

/** The background refresh of a change, as the page cache sees it. */
export interface BackgroundRefresh {
  markChange(): void;
  /** Queues a change's stale pages: this process's share here, the others' on theirs. Answers how many are queued in all. */
  enqueue(keys: string[]): number;
  /** A sibling's change: this process's share of its pages. */
  take(news: RefreshShareNews): void;
}

/** Every `processes`-th key from `index` on: the shares of all processes are disjoint and cover `keys`. */
export function shareOf(keys: readonly string[], index: number, processes: number): string[] {
  return processes <= 1 ? [...keys] : keys.filter((_, position) => position % processes === index);
}

/**
 * A change's stale pages refreshed by the render workers of every serving process. Alone, the
 * process that took the change refreshed them all on its own worker while the other's sat idle:
 * a category rename (every page shows the category list) took 290 s at 10,000 articles. A
 * sibling that is down loses its share; those pages are still answered (as STALE) and queued
 * for a render when a reader asks.
 */
export function shareBackgroundRefresh(
  queue: Pick<RefreshQueue, 'markChange' | 'enqueue' | 'status'>,
  place: RefreshSharePlace,
): BackgroundRefresh {
  const alone = !place.tell || place.processes <= 1;
  return {
    markChange() {
      queue.markChange();
    },
    enqueue(keys) {
      if (alone) return queue.enqueue(keys);
      place.tell!({ keys, changedAt: queue.status().changedAt });
      const mine = shareOf(keys, place.index, place.processes);
      return queue.enqueue(mine) + (keys.length - mine.length);
    },
    take(news) {
      place.syncVersions();
      queue.markChange(news.changedAt);
      queue.enqueue(shareOf(news.keys, place.index, place.processes));
    },
  };
}
