// The load's client and its records: plain keep-alive HTTP with one request in flight per
// connection, each request's time, bytes and page-store answer by kind, errors grouped by cause,
// and the table of percentiles.
import http from 'node:http';

export interface Answer {
  status: number;
  bytes: number;
  body: string | null;
  /** X-Page-Store: HIT (answered from the store) or MISS/REFRESHED (rendered for this request). */
  store: string | undefined;
}

export interface Kind {
  name: string;
  latencies: number[];
  bytes: number;
  /** Stored pages answered as they were, and ones rendered for the request. */
  hits: number;
  renders: number;
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

function row(name: string, latencies: number[], seconds: number, failed: number): string {
  const sorted = Float64Array.from(latencies).sort();
  const cells = [50, 90, 99].map((p) => percentile(sorted, p).toFixed(1).padStart(7));
  return `  ${name.padEnd(24)} ${String(latencies.length).padStart(8)} ${(latencies.length / seconds).toFixed(0).padStart(7)} ${cells.join(' ')} ${(sorted.at(-1) ?? 0).toFixed(1).padStart(7)} ${String(failed).padStart(7)}`;
}

export class LoadRecorder {
  readonly kinds = new Map<string, Kind>();
  readonly errors = new Map<string, { count: number; example: string }>();
  /** Only requests sent while this is on count (the warm-up's first renders stay out). */
  measuring = false;
  private readonly target: URL;
  private readonly agent: http.Agent;

  constructor(origin: string, connections: number) {
    this.target = new URL(origin);
    this.agent = new http.Agent({ keepAlive: true, maxSockets: connections, maxFreeSockets: connections });
  }

  send(method: string, pathname: string, headers: Record<string, string> = {}, body?: string, keepBody = false): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const request = http.request(
        {
          agent: this.agent,
          host: this.target.hostname,
          port: this.target.port,
          method,
          path: pathname,
          headers: { 'accept-encoding': 'br, gzip', ...headers },
        },
        (response) => {
          let bytes = 0;
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => {
            bytes += chunk.length;
            if (keepBody) chunks.push(chunk);
          });
          const store = response.headers['x-page-store'] as string | undefined;
          response.on('end', () =>
            resolve({ status: response.statusCode ?? 0, bytes, body: keepBody ? Buffer.concat(chunks).toString() : null, store }),
          );
          response.on('error', reject);
        },
      );
      request.setTimeout(30_000, () => request.destroy(new Error('no answer in 30 s')));
      request.on('error', reject);
      request.end(body);
    });
  }

  /** Runs one request and records it; a status other than the expected class is an error. */
  async measure(
    name: string,
    method: string,
    pathname: string,
    options: { headers?: Record<string, string>; body?: string; expect?: number; keepBody?: boolean } = {},
  ): Promise<Answer | null> {
    const started = performance.now();
    const counted = this.measuring;
    try {
      const answer = await this.send(method, pathname, options.headers, options.body, options.keepBody);
      const ok = options.expect ? answer.status === options.expect : answer.status >= 200 && answer.status < 400;
      if (counted) {
        const entry = this.kind(name);
        entry.latencies.push(performance.now() - started);
        entry.bytes += answer.bytes;
        if (answer.store === 'HIT') entry.hits++;
        else if (answer.store) entry.renders++;
        if (!ok) this.noteError(name, `HTTP ${answer.status}`, `${method} ${pathname}`);
      }
      return ok ? answer : null;
    } catch (error) {
      if (counted) this.noteError(name, (error as Error).message, `${method} ${pathname}`);
      return null;
    }
  }

  get totalErrors(): number {
    return [...this.errors.values()].reduce((sum, e) => sum + e.count, 0);
  }

  /** The table: each kind's requests, rate, percentiles and errors, busiest first, then all together. */
  printTable(seconds: number): void {
    const all = [...this.kinds.values()];
    const failedOf = (name: string) =>
      [...this.errors.entries()].filter(([key]) => key.startsWith(`${name}: `)).reduce((sum, [, e]) => sum + e.count, 0);
    console.log(
      `  ${'kind'.padEnd(24)} ${'requests'.padStart(8)} ${'req/s'.padStart(7)} ${'p50 ms'.padStart(7)} ${'p90 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'max ms'.padStart(7)} ${'errors'.padStart(7)}`,
    );
    for (const entry of all.sort((a, b) => b.latencies.length - a.latencies.length))
      console.log(row(entry.name, entry.latencies, seconds, failedOf(entry.name)));
    console.log(
      row(
        'all',
        all.flatMap((entry) => entry.latencies),
        seconds,
        this.totalErrors,
      ),
    );
  }

  destroy(): void {
    this.agent.destroy();
  }

  private kind(name: string): Kind {
    let found = this.kinds.get(name);
    if (!found) {
      found = { name, latencies: [], bytes: 0, hits: 0, renders: 0 };
      this.kinds.set(name, found);
    }
    return found;
  }

  private noteError(name: string, what: string, example: string): void {
    const key = `${name}: ${what}`;
    const entry = this.errors.get(key) ?? { count: 0, example };
    entry.count++;
    this.errors.set(key, entry);
  }
}
