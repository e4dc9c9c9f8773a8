import http from 'node:http';
import crypto from 'node:crypto';
import type { PageStore, StoredPage } from './page-store.ts';

/** Header that marks the server's own render requests, so they skip the page store. */
export const RENDER_HEADER = 'x-page-store-render';

export interface RenderResult {
  /** The stored page, when the answer was a storable page. */
  page: StoredPage | null;
  /** The raw answer, for everything that is not stored (404s, redirects, opted-out pages). */
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

const DROPPED_HEADERS = new Set(['connection', 'keep-alive', 'transfer-encoding', 'date', 'x-page-tags']);

/**
 * Renders pages by asking Astro over loopback, the documented and robust way to run the full
 * pipeline (middleware, route caching, islands) for a URL, and stores what comes back.
 * One render per key at a time: concurrent requests for the same page wait for that render.
 */
export class PageRenderer {
  readonly secret = crypto.randomBytes(18).toString('base64url');
  private origin: URL | null = null;
  private readonly inFlight = new Map<string, Promise<RenderResult>>();
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
  renders = 0;
  private readonly store: PageStore;

  constructor(store: PageStore) {
    this.store = store;
  }

  /** Set once the server listens. */
  setOrigin(origin: string): void {
    this.origin = new URL(origin);
  }

  render(key: string): Promise<RenderResult> {
    const running = this.inFlight.get(key);
    if (running) return running;
    const promise = this.renderOnce(key).finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, promise);
    return promise;
  }

  /** Re-renders these pages now, in parallel; errors are logged, never thrown. */
  async warm(keys: string[]): Promise<void> {
    await Promise.all(
      keys.map((key) =>
        this.render(key).catch((error: unknown) => {
          console.error(`[page-store] could not re-render ${key}:`, error);
        }),
      ),
    );
  }

  close(): void {
    this.agent.destroy();
  }

  private async renderOnce(key: string): Promise<RenderResult> {
    if (!this.origin) throw new Error('The renderer has no origin yet');
    const startedAt = this.store.beginRender();
    const { status, headers, body } = await this.fetch(key);
    this.renders++;
    const tagHeader = headers['x-page-tags'];
    const storable = status === 200 && typeof tagHeader === 'string' && tagHeader !== '' && !headers['set-cookie'];
    const page = storable
      ? this.store.put(
          key,
          {
            contentType: String(headers['content-type'] ?? 'text/html; charset=utf-8'),
            body,
            tags: tagHeader.split(',').map((t) => t.trim()).filter(Boolean),
          },
          startedAt,
        )
      : null;
    const kept: http.IncomingHttpHeaders = {};
    for (const [name, value] of Object.entries(headers)) if (!DROPPED_HEADERS.has(name)) kept[name] = value;
    return { page, status, headers: kept, body };
  }

  private fetch(key: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
    const origin = this.origin!;
    return new Promise((resolve, reject) => {
      const request = http.request(
        {
          host: origin.hostname,
          port: origin.port,
          path: key,
          method: 'GET',
          agent: this.agent,
          headers: { [RENDER_HEADER]: this.secret, 'accept-encoding': 'identity', accept: 'text/html' },
          timeout: 30_000,
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => resolve({ status: response.statusCode ?? 500, headers: response.headers, body: Buffer.concat(chunks) }));
          response.on('error', reject);
        },
      );
      request.on('timeout', () => request.destroy(new Error(`Render of ${key} timed out`)));
      request.on('error', reject);
      request.end();
    });
  }
}
