/**
 * The server's own metrics in the Prometheus text format (version 0.0.4), without a client
 * library: counters and histograms bumped in memory (a number addition on the serving path),
 * gauges read when scraped. One registry per process (`siteMetrics`).
 */

type Labels = Record<string, string>;

function labelText(labels: Labels): string {
  const parts = Object.entries(labels).map(([name, value]) => `${name}="${value.replace(/["\\\n]/g, '\\$&')}"`);
  return parts.length ? `{${parts.join(',')}}` : '';
}

export class Counter {
  /** One cell per label set, so a resolved label set counts with a plain `value++`. */
  private readonly values = new Map<string, { value: number }>();
  readonly name: string;
  readonly help: string;
  constructor(name: string, help: string) {
    this.name = name;
    this.help = help;
  }

  inc(labels: Labels = {}, by = 1): void {
    this.cell(labelText(labels)).value += by;
  }

  /** One label set resolved once: the serving path then pays one addition per count. */
  labelled(labels: Labels): { inc: () => void } {
    const cell = this.cell(labelText(labels));
    return { inc: () => void cell.value++ };
  }

  get(labels: Labels = {}): number {
    return this.values.get(labelText(labels))?.value ?? 0;
  }

  private cell(key: string): { value: number } {
    let cell = this.values.get(key);
    if (!cell) this.values.set(key, (cell = { value: 0 }));
    return cell;
  }

  render(): string[] {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} counter`];
    for (const [labels, cell] of this.values) lines.push(`${this.name}${labels} ${cell.value}`);
    return lines;
  }
}

/** Seconds, in buckets: what a dashboard needs for percentiles across servers. */
export class Histogram {
  private readonly counts: number[];
  private sum = 0;
  private count = 0;
  readonly name: string;
  readonly help: string;
  private readonly buckets: readonly number[];
  constructor(name: string, help: string, buckets: readonly number[]) {
    this.name = name;
    this.help = help;
    this.buckets = buckets;
    this.counts = buckets.map(() => 0);
  }

  observe(seconds: number): void {
    this.sum += seconds;
    this.count++;
    for (let i = 0; i < this.buckets.length; i++) if (seconds <= this.buckets[i]!) this.counts[i]!++;
  }

  render(): string[] {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} histogram`];
    this.buckets.forEach((bound, i) => lines.push(`${this.name}_bucket{le="${bound}"} ${this.counts[i]}`));
    lines.push(
      `${this.name}_bucket{le="+Inf"} ${this.count}`,
      `${this.name}_sum ${this.sum}`,
      `${this.name}_count ${this.count}`,
    );
    return lines;
  }
}

export class Gauge {
  readonly name: string;
  readonly help: string;
  private readonly read: () => number;
  constructor(name: string, help: string, read: () => number) {
    this.name = name;
    this.help = help;
    this.read = read;
  }

  render(): string[] {
    return [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} gauge`, `${this.name} ${this.read()}`];
  }
}

const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** Every metric the site exports. Gauges are added by the parts that own the numbers. */
export class SiteMetrics {
  readonly pagesServed = new Counter(
    'site_pages_served_total',
    'Public pages answered, by page-store state (hit, miss, stale, refreshed).',
  );
  readonly renders = new Histogram('site_page_render_seconds', 'Time to render one page through Astro.', LATENCY_BUCKETS);
  readonly purges = new Counter('site_cdn_purges_total', 'Purges sent to the shared caches, by kind and result (sent, failed).');
  readonly searches = new Histogram('site_search_seconds', 'Time to answer one search, queue included.', LATENCY_BUCKETS);
  private readonly gauges: Gauge[] = [];

  gauge(name: string, help: string, read: () => number): void {
    this.gauges.push(new Gauge(name, help, read));
  }

  render(): string {
    const parts = [this.pagesServed, this.renders, this.purges, this.searches, ...this.gauges];
    return `${parts.flatMap((metric) => metric.render()).join('\n')}\n`;
  }
}

const KEY = Symbol.for('study-site.metrics');
type Holder = { [KEY]?: SiteMetrics };

/** The process's metrics; the HTTP server and Astro's bundle share it through globalThis. */
export function siteMetrics(): SiteMetrics {
  const holder = globalThis as Holder;
  return (holder[KEY] ??= new SiteMetrics());
}
