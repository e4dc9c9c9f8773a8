import fs from 'node:fs';
import crypto from 'node:crypto';
import path from 'node:path';
import type http from 'node:http';
import { pathToFileURL } from 'node:url';
import type { Config } from '../config.ts';
import { prepareApp } from '../bootstrap.ts';
import { createPageCache, installPageCache, setAppContext, type AppContext } from '../context.ts';
import { PageStore } from '../page-store/store.ts';
import { PageRenderer } from '../page-store/renderer.ts';
import { hotUrlsForChange, listPublicUrls } from '../page-store/site-map.ts';
import { tagName, type PageTag } from '../page-store/site-tags.ts';
import { prerenderAll, type PrerenderSummary } from '../page-store/prerender.ts';
import { startTopViewedRefresher } from '../page-store/top-viewed-refresher.ts';
import { RefreshQueue } from '../page-store/refresh-queue.ts';
import { markStoreOpen } from '../page-store/crash-marker.ts';
import { dropStoredPages } from '../page-store/store-file.ts';
import { createHttpServer, type AstroHandler } from './listener.ts';
import { stopViewCounter } from '../content/clicks.ts';
import { startSearchServices } from '../content/search-service.ts';
import { startPublishScheduler } from '../content/publish-scheduler.ts';

export interface Site {
  server: http.Server;
  origin: string;
  context: AppContext;
  store: PageStore;
  renderer: PageRenderer;
  prerender: () => Promise<PrerenderSummary>;
  close: () => Promise<void>;
}

/** The build's id: pages rendered by another build point at other asset hashes. */
export function readBuildId(distDir: string): string {
  const file = path.join(distDir, 'build-id.txt');
  if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8').trim();
  return crypto
    .createHash('sha1')
    .update(fs.readFileSync(path.join(distDir, 'server/entry.mjs')))
    .digest('hex')
    .slice(0, 16);
}

/**
 * Opens the database, the page store and the built Astro app, and starts listening.
 * Every committed change invalidates its tags and re-renders the hot pages before it answers.
 */
export async function startSite(config: Config, log: (line: string) => void = console.log): Promise<Site> {
  const entry = path.join(config.distDir, 'server/entry.mjs');
  if (!fs.existsSync(entry)) throw new Error('No build found: run `npm run build` (or `npm start`, which builds when needed).');

  const context = await prepareApp(config, log);
  setAppContext(context);
  // After a crash, a committed write may not have reached the store's tags: its pages cannot be trusted.
  const run = markStoreOpen(config.pageStoreDir);
  if (run.previousRunCrashed) {
    dropStoredPages(config.pageStoreDir, run.othersRunning);
    log('Page store: the last run did not close cleanly; stored pages were dropped and are rendered again');
  }
  // Pages name the build's assets and the public origin: a change of either drops them.
  const store = new PageStore({
    dir: config.pageStoreDir,
    buildId: `${readBuildId(config.distDir)}|${config.publicOrigin}`,
    memoryBytes: config.pageMemoryMb * 1024 * 1024,
    maxBytes: config.pageStoreMaxMb * 1024 * 1024,
    log,
    // Test seam: the store's file fails every write as on a full disk.
    failWrites: process.env.NODE_ENV === 'test' && process.env.PAGE_STORE_TEST_FAULT === 'full',
  });
  const renderer = new PageRenderer(store, config.publicOrigin);
  const queue = new RefreshQueue(
    { render: (key) => renderer.render(key), isStale: (key) => store.isStale(key), concurrency: 1 },
    store.requests,
  );
  renderer.background = queue;
  // Every change, from a write or from the top-viewed check: stale now, hot pages re-rendered
  // now, every other stored page that carries a changed tag queued for the background refresh.
  const refresh = async (tags: PageTag[]) => {
    const names = tags.map(tagName);
    queue.markChange();
    store.invalidate(names);
    const hot = await hotUrlsForChange(context.db, tags);
    await renderer.warm(hot);
    const hotSet = new Set(hot);
    return { queued: queue.enqueue(store.keysCarrying(names).filter((key) => !hotSet.has(key))) };
  };
  installPageCache(
    context,
    createPageCache(refresh, () => queue.status()),
  );

  const { handler } = (await import(pathToFileURL(entry).href)) as { handler: AstroHandler };
  const server = createHttpServer({
    context,
    astro: handler,
    clientDir: path.join(config.distDir, 'client'),
    ...(config.pageStoreEnabled ? { pages: { store, renderer } } : {}),
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const origin = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
  // Only used when Astro's in-process renderer is missing (it is registered by src/fetch.ts).
  renderer.setOrigin(origin);
  const stopRefresher = startTopViewedRefresher(context.db, config.topViewedRefreshMs, refresh);
  const stopSearch = startSearchServices(context, log);
  // After the page cache is installed: a schedule that fell due while down publishes now, fresh.
  const stopScheduler = startPublishScheduler(context, log);

  const stopPrerender = new AbortController();
  let prerendering: Promise<PrerenderSummary> | undefined;

  return {
    server,
    origin,
    context,
    store,
    renderer,
    prerender: async () => {
      prerendering = prerenderAll(store, await listPublicUrls(context.db), {
        entry,
        origin: config.publicOrigin,
        signal: stopPrerender.signal,
      });
      return prerendering;
    },
    close: async () => {
      stopRefresher();
      await stopScheduler();
      stopPrerender.abort();
      await prerendering?.catch(() => undefined);
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // Idle keep-alive sockets would hold close() open for their whole timeout; requests under
      // way get a second to finish.
      server.closeIdleConnections();
      const cutOff = setTimeout(() => server.closeAllConnections(), 1000);
      await closed;
      clearTimeout(cutOff);
      queue.close();
      renderer.close();
      const trusted = store.isTrusted();
      store.close();
      await stopViewCounter();
      await stopSearch();
      context.sqlite.close();
      // A version bump that never reached the file leaves its marker: the next start drops the pages.
      if (trusted) run.release();
      else log('Page store: tag versions could not all be written; the next start drops the stored pages');
    },
  };
}
