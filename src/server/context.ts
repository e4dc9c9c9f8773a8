import { loadConfig, type Config } from './config.ts';
import { openDatabase, type Db } from './db/client.ts';
import type SQLite from 'better-sqlite3';
import type { PageTag } from '../shared/site-map/tags.ts';
import type { PdfTextExtractor, SearchIndex, SearchPageAnswer, SearchPool, ViewCounter, Wakeable } from './ports.ts';
import type { CdnPurgeReport, CdnPurgeStatus } from '../shared/api-types.ts';
import type { HitStore } from './hit-store.ts';

/** How long a change took to go live (`live_ms`) and how many other pages it queued for a background refresh. */
export interface ChangeLive {
  live_ms: number;
  /**
   * `hot_elsewhere`: hot pages another serving process rendered for this change (WEB_PROCESSES > 1).
   * `cdn`: the purge of the shared caches in front, when PURGE_VARNISH is set.
   */
  refresh: { queued: number; hot_elsewhere?: number; cdn?: CdnPurgeReport };
}

/** The background refresh's progress since the last change, for the admin. */
export interface RefreshProgress {
  queued: number;
  refreshedSinceLastChange: number;
  seconds: number;
  cdn?: CdnPurgeStatus;
  /** Pages the render workers rendered since the server started (absent where nothing is stored). */
  renderedByWorkers?: number;
  /** Of those, pages only the nav or the top-viewed list left stale, whose header and footer or list were patched instead (absent where nothing is stored). */
  patchedByWorkers?: number;
  /** Of those patched, pages naming a renamed category, whose new name was written in too (absent where nothing is stored). */
  renamedByWorkers?: number;
}

/** A tag and what the pages carrying it showed for it until a change: `[tag.categoryName(id), its old name]`. */
export type PageLabel = readonly [tag: PageTag, label: string];

/**
 * The page cache, as the services see it. Every write that changes what readers see ends by
 * calling invalidate() with the tags it touched, after its transaction committed; it answers once
 * the hot pages are fresh. The front server makes the real one (src/server/page-store/page-cache.ts);
 * under `astro dev` nothing is cached and the default does nothing.
 */
export interface PageCache {
  /**
   * `startedAt` (performance.now()) is when the save began, so `live_ms` covers the whole save.
   * `takenDown`: tags of content the change took down (an article unpublished, scheduled ahead
   * or deleted, a comment hidden, a category deleted). An edit's pages may be answered stale
   * while they are refreshed; once this answers, no page showing taken-down content is, by any
   * process or shared cache.
   * `labels`: what the pages carrying some of these tags showed for them until this change (a
   * category's name before its rename), so they can be mended instead of rendered.
   */
  invalidate(tags: PageTag[], startedAt?: number, takenDown?: PageTag[], labels?: PageLabel[]): Promise<ChangeLive>;
  refreshProgress(): RefreshProgress;
}

/** What every part of the app is built on: the validated configuration and the open database. */
export interface AppBase {
  readonly config: Config;
  readonly db: Db;
  readonly sqlite: SQLite.Database;
}

/**
 * The process-wide services, made once (the front server builds every part first, then this) and
 * never changed after. The HTTP server (plain Node) and Astro's bundle each load their own copy of
 * this module, so the one instance lives on globalThis under a registry symbol. Whatever else
 * both copies share (the view counts, the word index, the background jobs a write wakes; the
 * reads every page repeats travel with `db`, db/read-cache.ts) is a part of it, not a global of
 * its own; only Astro's renderer is handed out otherwise (page-store/astro-render.ts).
 */
export interface AppContext extends AppBase {
  readonly pageCache: PageCache;
  /** This process's view counts; absent on a render or search worker's thread, which counts none. */
  readonly views?: ViewCounter;
  /** The word index of `db` for searches in this thread; absent on a render worker's thread, which searches none. */
  readonly searchIndex?: SearchIndex;
  /** The timer that publishes scheduled articles, woken by a save that schedules one; from the front server. */
  readonly publishScheduler?: Wakeable;
  /** The mail sender, woken by a queued mail; in the lead serving process only (mail queued elsewhere waits for its poll). */
  readonly mailSender?: Wakeable;
  /** The moderation digest's check, woken by a held comment; in the lead serving process only. */
  readonly moderationDigest?: Wakeable;
  /** The search worker, from the front server; absent under `astro dev` (in-process then). */
  readonly search?: SearchPool;
  /**
   * Answers a /blogs request with a search (path and query, the reader's address) off the serving
   * thread: counted here, searched and rendered by the search worker. From the front server.
   */
  readonly searchPages?: (url: string, clientIp: string) => Promise<SearchPageAnswer>;
  /** Reads PDF text off the serving thread, from the front server; absent: in-process. */
  readonly pdfText?: PdfTextExtractor;
  /** Where the rate limits count, shared by every serving process; from the front server (absent: per process). */
  readonly hits?: HitStore;
}

const IDLE: RefreshProgress = { queued: 0, refreshedSinceLastChange: 0, seconds: 0 };

/**
 * A page cache that runs `refresh` for every change and times it. The write has committed when
 * this runs: a failure of the cache is logged, never thrown, so the save still answers success.
 */
export function createPageCache(
  refresh: (tags: PageTag[], takenDown: PageTag[], labels: PageLabel[]) => Promise<ChangeLive['refresh'] | void>,
  progress: () => RefreshProgress = () => IDLE,
): PageCache {
  return {
    async invalidate(tags, startedAt = performance.now(), takenDown = [], labels = []) {
      let outcome: ChangeLive['refresh'] = { queued: 0 };
      try {
        if (tags.length + takenDown.length > 0) outcome = (await refresh(tags, takenDown, labels)) ?? outcome;
      } catch (error) {
        console.error('[page-store] a committed change could not refresh its pages:', error);
      }
      return { live_ms: Math.round((performance.now() - startedAt) * 10) / 10, refresh: outcome };
    },
    refreshProgress: progress,
  };
}

/** The page cache when no front server installed one: nothing is stored, so nothing goes stale. */
export const noPageCache: PageCache = createPageCache(async () => undefined);

const KEY = Symbol.for('study-site.app-context');
type Holder = { [KEY]?: AppContext };

/** Makes `context` this process's, frozen: every part of it was made before. */
export function setAppContext(context: AppContext): void {
  (globalThis as Holder)[KEY] = Object.freeze(context);
}

/**
 * The running server's context. Under `astro dev` none was set: it is opened at the first call,
 * once, by `open` (src/middleware.ts hands it the parts its routes use, which this module sits
 * below), or with no part but the no-op page cache.
 */
export function getAppContext(open: (base: AppBase) => AppContext = (base) => ({ ...base, pageCache: noPageCache })): AppContext {
  const holder = globalThis as Holder;
  if (!holder[KEY]) {
    const config = loadConfig();
    const { db, sqlite } = openDatabase(config.databasePath);
    holder[KEY] = Object.freeze(open({ config, db, sqlite }));
  }
  return holder[KEY];
}
