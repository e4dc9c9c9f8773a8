import type { Db } from '../db/client.ts';
import { createPageCache, type PageCache, type PageLabel, type RefreshProgress } from '../context.ts';
import type { CdnChangePurge } from '../cdn/change-purge.ts';
import type { PageStore } from './store.ts';
import type { BackgroundRefresh } from './refresh-share.ts';
import type { TagBump } from './store-file.ts';
import { hotUrlsForChange } from './site-map.ts';
import { tagName, uniqueTags, type PageTag } from './site-tags.ts';

/** What the page cache drives, each made once by the front server (front/site.ts). */
export interface PageCacheParts {
  db: Db;
  store: PageStore;
  /** The background refresh: every stale page that is not hot. */
  background: BackgroundRefresh;
  /** Renders the hot pages now, part of them on a sibling process when there is one (front/render-help.ts). */
  renderHot: (keys: string[]) => Promise<{ elsewhere: number }>;
  /** Holds the background refresh back for a moment: the change's hot renders go first. */
  quietBackground: () => void;
  /** Hands bumps the store's file could not take to every sibling process; resolves once all applied them. */
  tellSiblings: (bumps: TagBump[]) => Promise<void>;
  /** The shared caches in front (PURGE_VARNISH); null without them. */
  cdn: CdnChangePurge | null;
  /** The background refresh of every serving process, and their render counts, for the admin (refresh-status.ts). */
  refreshStatus: () => RefreshProgress;
}

/**
 * The page cache every service calls after a committed change (`AppContext.pageCache`). A change
 * goes: its tags bumped in the store (stale everywhere at once, O(tags)); the other processes
 * told (through the store's file, or directly when the file cannot take it); its hot pages
 * (`site-map.ts` `hotUrlsForChange`: the article, the lists that show it) rendered now; every
 * other stored page carrying a changed tag queued for the background refresh; then the shared
 * caches purged. It answers when the hot pages are fresh and every process sees the change. A
 * take-down's pages are never answered stale meanwhile (the mark is in the store before this
 * answers) and are purged hard from the shared caches before the change answers.
 */
export function createSitePageCache(parts: PageCacheParts): PageCache {
  const { db, store, background, renderHot, quietBackground, tellSiblings, cdn } = parts;
  const refresh = async (changed: PageTag[], takenDown: PageTag[] = [], labels: PageLabel[] = []) => {
    const tags = uniqueTags([...changed, ...takenDown]);
    const names = tags.map(tagName);
    const takenDownNames = takenDown.map(tagName);
    quietBackground();
    background.markChange();
    const changedAt = performance.now();
    const untold = store.invalidate(
      names,
      takenDownNames,
      labels.map(([pageTag, label]) => [tagName(pageTag), label] as const),
    );
    // The other processes judge pages by versions at most a few ms old: the change answers once
    // they all see it, in the file or, when it could not take them, from this process.
    const seen = untold ? tellSiblings(untold) : store.seenEverywhere();
    const hot = await hotUrlsForChange(db, tags);
    // The hot renders are handed to the workers first (synchronously, as urgent jobs); the other
    // stale pages (1,670 for an edit of the newest article at 10,000 articles: 2-6 ms to list) are
    // queued while the workers render, instead of after.
    const warming = renderHot(hot);
    const hotSet = new Set(hot);
    const queued = background.enqueue(store.keysCarrying(names).filter((key) => !hotSet.has(key)));
    const { elsewhere } = await warming;
    await seen;
    // A process holding a stale copy of a hot page reads the file for a fresher one only now and
    // then: it answers the hot pages fresh before this answers.
    const unannounced = await store.announceStored(changedAt);
    if (unannounced) await tellSiblings(unannounced);
    const outcome = { queued, ...(elsewhere > 0 ? { hot_elsewhere: elsewhere } : {}) };
    return cdn ? { ...outcome, cdn: await cdn.afterChange(names, hot, takenDownNames) } : outcome;
  };
  return createPageCache(refresh, () => {
    const status = parts.refreshStatus();
    return cdn ? { ...status, cdn: cdn.status() } : status;
  });
}
