import cluster from 'node:cluster';
import { AggregatorRegistry, Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * The server's own metrics in the Prometheus text format, through prom-client: counters and
 * histograms bumped in memory on the serving path, gauges read when scraped. One registry per
 * process (`createSiteMetrics`). With several serving processes the first process answers the scrape
 * with the sum over all of them (`clusterMetrics`): a scrape of one process's own numbers made
 * counters go backwards whenever the next scrape reached another process.
 */

const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** Every metric the site exports. Gauges are added by the parts that own the numbers. */
export class SiteMetrics {
  readonly registry = new Registry();
  readonly pagesServed = new Counter({
    name: 'site_pages_served_total',
    help: 'Public pages answered, by page-store state (hit, miss, stale, refreshed).',
    labelNames: ['state'],
    registers: [this.registry],
  });
  readonly renders = new Histogram({
    name: 'site_page_render_seconds',
    help: 'Time to render one page through Astro.',
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });
  readonly purges = new Counter({
    name: 'site_cdn_purges_total',
    help: 'Purges sent to the shared caches, by kind and result (sent, failed).',
    labelNames: ['kind', 'result'],
    registers: [this.registry],
  });
  readonly searches = new Histogram({
    name: 'site_search_seconds',
    help: 'Time to answer one search, queue included.',
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });

  /** A number read when scraped; several processes' values are added up. */
  gauge(name: string, help: string, read: () => number): void {
    new Gauge({
      name,
      help,
      registers: [this.registry],
      collect() {
        this.set(read());
      },
    });
  }

  /** This process's metrics in the text format. */
  render(): Promise<string> {
    return this.registry.metrics();
  }
}

/**
 * The process's metrics, made once by the front server and handed to the parts that count. In a
 * serving process of several, it is what the process hands the first one for each scrape
 * (prom-client's cluster messages).
 */
export function createSiteMetrics(): SiteMetrics {
  const metrics = new SiteMetrics();
  if (cluster.isWorker) {
    AggregatorRegistry.setRegistries([metrics.registry]);
    // Constructed in a worker, it answers the first process's requests for these metrics.
    new AggregatorRegistry();
  }
  return metrics;
}

/** In the first process of several: every scrape asks each serving process and answers the sum. */
export function clusterMetrics(): { render: () => Promise<string> } {
  const aggregator = new AggregatorRegistry();
  return { render: () => aggregator.clusterMetrics() };
}
