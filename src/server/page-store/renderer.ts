import http from 'node:http';
import crypto from 'node:crypto';
import type { PageStore, StoredPage } from './store.ts';
import { getAstroRender, renderInProcess, type RenderedPage } from './astro-render.ts';
import type { RefreshQueue } from './refresh-queue.ts';

/** Header that marks the server's own loopback render requests, so they skip the page store. */
export const RENDER_HEADER = 'x-page-store-render';

export interface RenderResult {
  /** The stored page, when the answer was a storable page. */
  page: StoredPage | null;
  /** The raw answer, for everything that is not stored (404s, redirects, opted-out pages). */
  status: number;
  headers: Record<string, string | string[]>;
  body: Buffer;
}

const DROPPED_HEADERS = new Set(['connection', 'keep-alive', 'transfer-encoding', 'date', 'x-page-tags', 'content-length']);

/** Tags a rendered answer declared, or null when it must not be stored. */
export function storableTags(rendered: Pick<RenderedPage, 'status' | 'headers' | 'setsCookie'>): string[] | null {
  const header = rendered.headers['x-page-tags'];
  if (rendered.status !== 200 || !header || rendered.setsCookie) return null;
  const tags = header
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
  return tags.length ? tags : null;
}

/**
 * Renders pages through Astro and stores what comes back. In the server this runs in-process
 * (src/fetch.ts hands over Astro's own request handler); a loopback request is the fallback.
 * One render per key at a time: concurrent requests for the same page wait for that render.
 */
export class PageRenderer {
  readonly secret = crypto.randomBytes(18).toString('base64url');
  renders = 0;
  /** Where stale pages go to be re-rendered in the background (installed by the front server). */
  background: RefreshQueue | null = null;
  private origin: URL;
  private readonly store: PageStore;
  private readonly inFlight = new Map<string, Promise<RenderResult>>();
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 16 });

  constructor(store: PageStore, origin: string) {
    this.store = store;
    this.origin = new URL(origin);
  }

  /** The loopback address, once the server listens (used only without the in-process renderer). */
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

  /** Re-renders these pages now; errors are logged, never thrown. */
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
    const startedAt = this.store.beginRender();
    const astro = getAstroRender();
    const rendered = astro ? await renderInProcess(astro, this.origin.origin, key) : await this.fetchLoopback(key);
    this.renders++;
    const tags = storableTags(rendered);
    const page = tags
      ? this.store.put(
          key,
          { contentType: rendered.headers['content-type'] ?? 'text/html; charset=utf-8', body: rendered.body, tags },
          startedAt,
        )
      : null;
    // A page that is gone (a deleted article) must not be answered from its old stored copy.
    if (rendered.status === 404 || rendered.status === 410) this.store.remove(key);
    const kept: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(rendered.headers)) if (!DROPPED_HEADERS.has(name)) kept[name] = value;
    return { page, status: rendered.status, headers: kept, body: rendered.body };
  }

  private fetchLoopback(key: string): Promise<RenderedPage> {
    const origin = this.origin;
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
          response.on('end', () => {
            const headers: Record<string, string> = {};
            for (const [name, value] of Object.entries(response.headers)) {
              if (typeof value === 'string') headers[name] = value;
            }
            resolve({
              status: response.statusCode ?? 500,
              headers,
              setsCookie: (response.headers['set-cookie'] ?? []).length > 0,
              body: Buffer.concat(chunks),
            });
          });
          response.on('error', reject);
        },
      );
      request.on('timeout', () => request.destroy(new Error(`Render of ${key} timed out`)));
      request.on('error', reject);
      request.end();
    });
  }
}
