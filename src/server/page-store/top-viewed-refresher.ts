import type { Db } from '../db/client.ts';
import { topViewedFingerprint } from '../db/repositories/site-pages.ts';
import { TOP_VIEWED_LIMIT } from '../../shared/site-map/page-sizes.ts';
import { tag, type PageTag } from './site-tags.ts';

/**
 * View counts change on every visit; re-rendering pages per click would be pointless churn.
 * Instead the top-viewed list is checked once per interval and its pages refreshed only if it
 * changed.
 */
export function startTopViewedRefresher(db: Db, intervalMs: number, refresh: (tags: PageTag[]) => Promise<unknown>): () => void {
  let last: string | null = null;
  let running = false;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      const current = await topViewedFingerprint(db, TOP_VIEWED_LIMIT);
      if (last !== null && current !== last) await refresh([tag.topViewed]);
      last = current;
    } catch (error) {
      console.error('[page-store] top-viewed refresh failed:', error);
    } finally {
      running = false;
    }
  };
  void tick();
  const timer = setInterval(() => void tick(), intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
