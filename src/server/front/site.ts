import fs from 'node:fs';
import path from 'node:path';
import type http from 'node:http';
import { pathToFileURL } from 'node:url';
import type { Config } from '../config.ts';
import type { SearchPageDecision } from '../ports.ts';
import { prepareApp } from '../bootstrap.ts';
import { storeBuildId } from '../page-store/build-id.ts';
import { setAppContext, type AppContext } from '../context.ts';
import { createSitePageCache } from '../page-store/page-cache.ts';
import { PageStore } from '../page-store/store.ts';
import { PageRenderer } from '../page-store/renderer.ts';
import { PATCHES_PER_WORKER, startRenderPool } from '../page-store/render-workers.ts';
import { paceRefresh, REFRESH_MIN_PAGES_PER_SECOND } from '../page-store/refresh-pace.ts';
import { publicUrls } from '../page-store/site-map.ts';
import { PackedKeys } from '../page-store/packed-keys.ts';
import { prerenderAll, type PrerenderSummary } from '../page-store/prerender.ts';
import { makeMissingEncodings } from '../page-store/encoding-backfill.ts';
import { startTopViewedRefresher } from '../page-store/top-viewed-refresher.ts';
import { RefreshQueue } from '../page-store/refresh-queue.ts';
import { STORE_WRITE_BATCH } from '../page-store/store-batch.ts';
import { markStoreOpen } from '../page-store/crash-marker.ts';
import { dropStoredPages } from '../page-store/store-file.ts';
import { createHttpServer, listenOn, type AstroHandler } from './listener.ts';
import { createRenderHelp, type RenderHelpMessage } from './render-help.ts';
import type { SiblingNews } from './sibling-news.ts';
import { shareRefreshWithSiblings } from './refresh-siblings.ts';
import { connectSiblings } from './site-siblings.ts';
import { createViewCounter } from '../content/clicks.ts';
import { startSearchServices } from '../content/search-service.ts';
import { createCdnChangePurge } from '../cdn/change-purge.ts';
import { createSiteMetrics } from '../metrics/registry.ts';
import { instrumentSite } from '../metrics/instrument.ts';
import { NotFoundPacer } from './not-found-pacer.ts';
import { startMetricsListener } from '../metrics/listener.ts';
import { openRateHitStore } from '../db/repositories/rate-hits.ts';
import { createBackgroundJobs } from '../content/background-jobs.ts';
import { loadMallocTrim, startQuietTrim } from './memory-trim.ts';
import { restRenderersSoonEverywhere, wakeRenderersEverywhere } from './render-wake.ts';

/** What this process does when several serve the same port (front/README.md "Several processes"). */
export interface SiteRole {
  /** The one process that runs the once-only work: the top-viewed check and the first pre-render. */
  lead: boolean;
  /** Started by the cluster's first process, which migrated the database and checked for a crash. */
  inCluster: boolean;
  /** This serving process's index among WEB_PROCESSES (0 alone): its share of a change's background refresh. */
  index: number;
}

const ALONE: SiteRole = { lead: true, inCluster: false, index: 0 };

/**
 * While changes come (an admin saving again and again, a script importing), the background
 * refresh waits for a quiet moment: a render under way cannot be interrupted, so the next save's
 * hot pages would wait for it, and a list page re-rendered between two changes is staled again at
 * once. Measured at 10,000 articles: the sitemap (every article write stales it) was re-rendered
 * right after each save and the next save's hot pages waited for it. 100 ms was too short on a
 * busy machine (an edit, its four checks and the next edit took longer): side by side, the
 * median save took 240-270 ms with 100 ms and 57-79 ms with 500 ms.
 */
const BACKGROUND_QUIET_AFTER_CHANGE_MS = 500;
/**
 * How soon the render workers stop once this process's share of the pre-render and its brotli
 * copies are done, instead of the rest spell (RENDER_WORKERS_REST_SECONDS): readers of a
 * pre-rendered site start no render, and workers that had rendered held about 55 MB a process
 * more while readers read (10,000 articles, docs/benchmarks.md). The next miss, save, search or
 * admin request starts them again.
 */
const REST_AFTER_PRERENDER_MS = 2000;
/**
 * The same once the top-viewed lists are refreshed (every home page shows one): on a site with
 * readers they move at every check, and each refresh kept both processes' workers up a rest spell.
 */
const REST_AFTER_TOP_VIEWED_MS = 2000;

export interface Site {
  server: http.Server;
  origin: string;
  context: AppContext;
  store: PageStore;
  renderer: PageRenderer;
  prerender: (share?: PrerenderShare) => Promise<PrerenderSummary>;
  close: () => Promise<void>;
}

/** Which part of the site's pages a process pre-renders: every `of`-th one from `index`. */
export interface PrerenderShare {
  index: number;
  of: number;
  /** Progress lines on the terminal (one process prints them when several share the work). */
  showProgress: boolean;
}

/**
 * Opens the database, the page store and the built Astro app, and starts listening.
 * Every committed change invalidates its tags and re-renders the hot pages before it answers.
 */
export async function startSite(config: Config, log: (line: string) => void = console.log, role = ALONE): Promise<Site> {
  const entry = path.join(config.distDir, 'server/entry.mjs');
  if (!fs.existsSync(entry)) throw new Error('No build found: run `npm run build` (or `npm start`, which builds when needed).');

  const base = await prepareApp(config, log, !role.inCluster);
  // Rate limits count where every process (and another server on the same files) sees them.
  const hits = openRateHitStore(config.limitsPath);
  // After a crash, a committed write may not have reached the store's tags: its pages cannot be trusted.
  const run = markStoreOpen(config.pageStoreDir);
  if (run.previousRunCrashed) {
    // Beside live siblings the rows go, never the file they have open.
    dropStoredPages(config.pageStoreDir, role.inCluster ? Math.max(1, run.othersRunning) : run.othersRunning);
    log('Page store: the last run did not close cleanly; stored pages were dropped and are rendered again');
  }
  const store = new PageStore({
    dir: config.pageStoreDir,
    buildId: storeBuildId(config),
    memoryBytes: config.pageMemoryMb * 1024 * 1024,
    maxBytes: config.pageStoreMaxMb * 1024 * 1024,
    log,
    failWrites: config.testSeams.storeWritesFail,
    // Alone, this process checks the file at start and sets a damaged one aside; in a cluster the
    // first process did both before forking, and a sibling may have the file open.
    check: !role.inCluster,
    setAside: !role.inCluster && run.othersRunning === 0,
  });
  // Every public page is rendered on these threads; this one serves readers and stores pages.
  const pool = startRenderPool(config, entry);
  const renderer = new PageRenderer(store, pool);
  const queue = new RefreshQueue(
    {
      render: (key) => renderer.render(key, 'background'),
      isStale: (key) => store.isStale(key),
      // Enough to keep every worker busy, and a batch of the store's writes filling meanwhile (a page
      // waits for its batch before it leaves the queue); readers' misses and saves still go first in the pool.
      concurrency: config.renderWorkers * PATCHES_PER_WORKER + STORE_WRITE_BATCH,
    },
    store.requests,
  );
  renderer.background = queue;
  // Ahead of its pace, the refresh takes only the time readers leave idle.
  const stopPace = paceRefresh(queue, pool, REFRESH_MIN_PAGES_PER_SECOND / config.webProcesses);
  // A save's hot pages are shared with a sibling process's render worker (render-help.ts).
  const send = role.inCluster && process.send ? (message: RenderHelpMessage | SiblingNews) => process.send!(message) : null;
  const { siblings, siblingPurges, tellBumps, disconnect } = connectSiblings(send, {
    ownPurges: () => cdn?.ownStatus() ?? null,
    onBumps: (bumps) => store.invalidateFromSibling(bumps),
    log,
  });
  // A change's hot pages here, or a sibling's: the background waits until they are done and a
  // moment after (BACKGROUND_QUIET_AFTER_CHANGE_MS).
  const renderHot = async (keys: string[]) => {
    pool.deferBackground(BACKGROUND_QUIET_AFTER_CHANGE_MS);
    try {
      await renderer.warm(keys);
    } finally {
      pool.deferBackground(BACKGROUND_QUIET_AFTER_CHANGE_MS);
    }
  };
  const renderHelp = createRenderHelp({
    renderHere: renderHot,
    send,
    timeoutMs: config.testSeams.renderHelpWaitMs ?? undefined,
  });
  // A change's stale pages are refreshed by every process's workers, each its share.
  const refresh = shareRefreshWithSiblings(siblings, queue, {
    inCluster: send !== null,
    index: role.index,
    processes: config.webProcesses,
    rendered: () => pool.status().rendered,
    patched: () => renderer.patched,
    renamed: () => renderer.renamed,
    syncVersions: () => store.syncVersions(),
    onRendered: (listener) => pool.onSettled(listener),
  });
  const onClusterMessage = (message: unknown) => {
    renderHelp.onMessage(message);
    siblings.onMessage(message);
  };
  if (send) process.on('message', onClusterMessage);
  const metrics = createSiteMetrics();
  // The shared caches in front (PURGE_VARNISH), purged after the store on every change.
  const cdn = createCdnChangePurge(
    config.cdn,
    log,
    (kind, ok) => metrics.purges.inc({ kind, result: ok ? 'sent' : 'failed' }),
    send ? { tell: (status) => siblings.tell('purge-status', status), told: () => siblingPurges.values() } : undefined,
  );
  // Every change, from a write or from the top-viewed check (page-store/page-cache.ts).
  const pageCache = createSitePageCache({
    db: base.db,
    store,
    background: refresh.background,
    renderHot: (keys) => renderHelp.warm(keys),
    quietBackground: () => pool.deferBackground(BACKGROUND_QUIET_AFTER_CHANGE_MS),
    tellSiblings: tellBumps,
    cdn,
    refreshStatus: refresh.status,
  });
  siblings.tell('hello', null);
  // A search page: searched and rendered by a render worker (content/search-page-render.ts).
  const renderSearchPage = (url: string, searchPage: SearchPageDecision, limitMs: number) =>
    pool.render(url, 'now', { searchPage }, limitMs).then(({ status, headers, body }) => ({ status, headers, body }));
  const search = startSearchServices(base, log, role.lead, renderSearchPage);
  const views = createViewCounter({ db: base.db, hits });
  const jobs = createBackgroundJobs(base, role.lead, log);
  // Every part is made: the context is set once and never changed.
  const context: AppContext = { ...base, pageCache, hits, views, ...search.services, ...jobs.parts };
  setAppContext(context);
  search.start(context);

  const { handler } = (await import(pathToFileURL(entry).href)) as { handler: AstroHandler };
  const notFound = new NotFoundPacer(config.rateLimits.notFoundPerSecond);
  const server = createHttpServer({
    context,
    astro: handler,
    clientDir: path.join(config.distDir, 'client'),
    ...(config.pageStoreEnabled ? { pages: { store, renderer } } : {}),
    notFound,
    metrics,
    wakeRenderers: wakeRenderersEverywhere(pool, send ? siblings : null, config.renderWorkersRestSeconds),
  });
  // Which of several processes answered (tests kill one, or check a session on each).
  if (config.testSeams.markAnswers && role.inCluster) {
    server.prependListener('request', (_req: http.IncomingMessage, res: http.ServerResponse) =>
      res.setHeader('X-Process', String(process.pid)),
    );
  }
  const origin = await listenOn(server, config.host, config.port);
  // One check for all processes: the view counts they write all land in the one database.
  const restAfterTopViewed = restRenderersSoonEverywhere(pool, send ? siblings : null, REST_AFTER_TOP_VIEWED_MS);
  const stopRefresher = role.lead
    ? startTopViewedRefresher(context.db, config.topViewedRefreshMs, (tags) =>
        pageCache.invalidate(tags).finally(restAfterTopViewed),
      )
    : () => {};
  instrumentSite(metrics, { context, store, renderer, queue, notFound });
  // Its own listener, so readers never reach it whatever the proxy in front passes. With several
  // processes the first one listens and answers for all (cluster-primary.ts).
  const metricsServer =
    config.metricsAddress && !role.inCluster ? await startMetricsListener(config.metricsAddress, metrics) : null;
  if (metricsServer) log(`Metrics on ${metricsServer.origin}/metrics`);
  jobs.start(context);
  const mallocTrim = loadMallocTrim(config.distDir);
  const stopTrim = mallocTrim ? startQuietTrim({ trim: mallocTrim }) : () => {};

  const stopPrerender = new AbortController();
  let prerendering: Promise<PrerenderSummary> | undefined;
  let backfilling: Promise<void> | undefined;

  return {
    server,
    origin,
    context,
    store,
    renderer,
    prerender: async (share = { index: 0, of: 1, showProgress: true }) => {
      const urls = PackedKeys.of(await publicUrls(context.db), (i) => i % share.of === share.index);
      prerendering = prerenderAll(store, urls, {
        pool,
        signal: stopPrerender.signal,
        ...(share.of > 1 ? { part: `(process ${share.index + 1}'s share of ${share.of})` } : {}),
        ...(share.showProgress ? {} : { out: null }),
      });
      // Then the brotli copies of pages readers had rendered meanwhile (stored as rendered).
      backfilling = prerendering
        .then(() => makeMissingEncodings(store, renderer, urls, 'br', stopPrerender.signal))
        .then(
          ({ made, seconds }) => {
            if (made > 0 && !stopPrerender.signal.aborted)
              console.log(`[page-store] brotli copies of ${made} pages made in ${seconds.toFixed(1)} s`);
          },
          (error: unknown) => {
            if (!stopPrerender.signal.aborted) console.error('[page-store] the brotli copies were not all made:', error);
          },
        )
        .then(() => {
          if (!stopPrerender.signal.aborted) pool.restSoon(REST_AFTER_PRERENDER_MS);
        });
      return prerendering;
    },
    close: async () => {
      process.off('message', onClusterMessage);
      disconnect();
      stopRefresher();
      stopTrim();
      await jobs.stop();
      stopPrerender.abort();
      await prerendering?.catch(() => undefined);
      await backfilling;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      notFound.flush();
      // Idle keep-alive sockets would hold close() open for their whole timeout; requests under
      // way get a second to finish.
      server.closeIdleConnections();
      const cutOff = setTimeout(() => server.closeAllConnections(), 1000);
      await closed;
      clearTimeout(cutOff);
      stopPace();
      queue.close();
      cdn?.close();
      metricsServer?.server.close();
      await pool.close();
      renderer.flushWrites();
      const trusted = store.isTrusted();
      store.close();
      await views.stop();
      await search.stop();
      context.sqlite.close();
      hits.close();
      // A version bump that never reached the file leaves its marker: the next start drops the pages.
      if (trusted) run.release();
      else log('Page store: tag versions could not all be written; the next start drops the stored pages');
    },
  };
}
