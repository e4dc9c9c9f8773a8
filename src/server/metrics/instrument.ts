import type { AppContext } from '../context.ts';
import type { PageRenderer } from '../page-store/renderer.ts';
import type { RefreshQueue } from '../page-store/refresh-queue.ts';
import type { PageStore } from '../page-store/store.ts';
import type { SiteMetrics } from './registry.ts';

/** What the metrics read of the front server's not-found pacer (named here: metrics sit below the front server). */
interface WaitingCount {
  readonly queued: number;
}

/**
 * Connects the running site's parts to its metrics. Timings wrap the parts' public methods from
 * outside (a render as the store's callers see it, a search queue included), so the parts stay
 * unaware of metrics; the gauges read the numbers the parts already keep.
 */
export function instrumentSite(
  metrics: SiteMetrics,
  parts: { context: AppContext; store: PageStore; renderer: PageRenderer; queue: RefreshQueue; notFound?: WaitingCount },
): void {
  const { context, store, renderer, queue, notFound } = parts;
  const render = renderer.render.bind(renderer);
  // Every argument passes through: dropping the priority made each background refresh a `now`
  // render, queued with readers' misses and a save's hot pages instead of behind them.
  renderer.render = (...args: Parameters<PageRenderer['render']>) => {
    const startedAt = performance.now();
    return render(...args).finally(() => metrics.renders.observe((performance.now() - startedAt) / 1000));
  };
  const search = context.search;
  if (search) {
    const run = search.run.bind(search);
    search.run = (request) => {
      const startedAt = performance.now();
      return run(request).finally(() => metrics.searches.observe((performance.now() - startedAt) / 1000));
    };
    // A search page is searched and rendered in a render worker: timed as one search.
    const renderPage = search.renderPage.bind(search);
    search.renderPage = (job) => {
      const startedAt = performance.now();
      const rendered = renderPage(job);
      if (job.decision.refusal !== null) return rendered;
      return rendered.finally(() => metrics.searches.observe((performance.now() - startedAt) / 1000));
    };
    metrics.gauge(
      'site_search_threads',
      "Search threads running (the API's searches; started by the first, stopped after a quiet minute).",
      () => (search.hasWorker() ? 1 : 0),
    );
  }
  if (notFound) {
    metrics.gauge(
      'site_not_found_waiting',
      'Answers to unknown addresses waiting their turn (RATE_LIMIT_NOT_FOUND_PER_SECOND).',
      () => notFound.queued,
    );
  }
  metrics.gauge('site_refresh_queue_depth', 'Stale pages waiting for the background refresh.', () => queue.status().queued);
  metrics.gauge('site_page_store_memory_pages', 'Stored pages held in memory.', () => store.stats().memoryPages);
  metrics.gauge('site_page_store_memory_bytes', 'Memory used by stored pages.', () => store.stats().memoryBytes);
}
