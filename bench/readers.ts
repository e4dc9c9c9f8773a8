// A bounded reader load for the engine benchmarks: a fixed number of keep-alive connections, each
// asking for public pages back to back (home pages, /blogs and category pages, articles), the way
// bench/load.ts's readers do. Records each answer's latency and X-Page-Store state.
import http from 'node:http';

export interface ReaderSite {
  origin: string;
  articles: number;
  categories: number;
}

export interface ReaderFigures {
  requests: number;
  seconds: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /** Answers by X-Page-Store state (HIT, STALE, MISS, ...). */
  states: Record<string, number>;
}

const between = (low: number, high: number) => low + Math.floor(Math.random() * (high - low + 1));

/** A reader's next page: articles 60%, list pages 25%, home pages 15%. */
function nextPage(site: ReaderSite): string {
  const roll = Math.random();
  if (roll < 0.6) return `/blog/${between(1, site.articles)}`;
  if (roll < 0.85) {
    return Math.random() < 0.5
      ? `/blogs?page=${between(1, site.articles)}`
      : `/blogs?category=${between(1, site.categories)}&page=${between(1, Math.floor(site.articles / site.categories))}`;
  }
  return `/?page=${between(1, Math.ceil(site.articles / 6))}`;
}

function get(agent: http.Agent, target: URL, pathname: string): Promise<{ status: number; state: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      { agent, host: target.hostname, port: target.port, path: pathname, headers: { 'accept-encoding': 'br, gzip' } },
      (response) => {
        response.resume();
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, state: String(response.headers['x-page-store'] ?? 'none') }),
        );
        response.on('error', reject);
      },
    );
    request.setTimeout(30_000, () => request.destroy(new Error('no answer in 30 s')));
    request.on('error', reject);
    request.end();
  });
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** Readers on `connections` connections until `stop` resolves; figures over that time. */
export async function readPages(site: ReaderSite, connections: number, stop: Promise<unknown>): Promise<ReaderFigures> {
  const target = new URL(site.origin);
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const latencies: number[] = [];
  const states: Record<string, number> = {};
  let errors = 0;
  let stopping = false;
  void stop.then(() => (stopping = true));
  const started = performance.now();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (!stopping) {
        const sent = performance.now();
        try {
          const answer = await get(agent, target, nextPage(site));
          latencies.push(performance.now() - sent);
          states[answer.state] = (states[answer.state] ?? 0) + 1;
          if (answer.status !== 200) errors++;
        } catch {
          errors++;
        }
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  const sorted = Float64Array.from(latencies).sort();
  return {
    requests: latencies.length,
    seconds,
    rps: latencies.length / seconds,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    errors,
    states,
  };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
