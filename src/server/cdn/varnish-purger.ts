import http from 'node:http';

/**
 * Sends xkey purges to every configured Varnish (PURGE_VARNISH). A purge is a `PURGE /` request
 * whose `xkey-purge` header (drop now) or `xkey-softpurge` header (keep serving the old copy
 * while a fresh one is fetched) lists the keys; deploy/varnish.vcl honours it only from its ACL.
 *
 * The write that caused a purge has committed: a purge that fails is logged and retried with
 * backoff in the background, never thrown, and the outcome is kept for the admin to see.
 */

export type PurgeKind = 'purge' | 'softpurge';

export interface PurgeOutcome {
  /** Caches that confirmed the purge on the first try. */
  purged: number;
  /** Caches that did not: their purge is being retried in the background. */
  failed: Array<{ cache: string; error: string }>;
}

export interface PurgeStatus {
  caches: number;
  sent: number;
  failed: number;
  /** Purges still being retried. */
  retrying: number;
  /** Purges that failed every retry (logged): those caches may keep old pages until they expire. */
  givenUp: number;
  /** The last purge that failed, with when, or null. */
  lastFailure: { cache: string; error: string; at: string } | null;
}

export interface PurgerOptions {
  caches: URL[];
  log?: (line: string) => void;
  /** Per try; a slow cache must not hold a save for long. */
  timeoutMs?: number;
  /** Waits between tries after the first failure. */
  retryDelaysMs?: number[];
  /** Counts each purge sent or failed (metrics). */
  onResult?: (kind: PurgeKind, ok: boolean) => void;
}

const DEFAULT_RETRY_DELAYS_MS = [250, 1000, 4000, 15_000, 60_000];

export class VarnishPurger {
  private readonly caches: URL[];
  private readonly log: (line: string) => void;
  private readonly timeoutMs: number;
  private readonly retryDelays: number[];
  private readonly onResult: (kind: PurgeKind, ok: boolean) => void;
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
  private readonly timers = new Set<NodeJS.Timeout>();
  private sent = 0;
  private failed = 0;
  private givenUp = 0;
  private lastFailure: PurgeStatus['lastFailure'] = null;

  constructor(options: PurgerOptions) {
    this.caches = options.caches;
    this.log = options.log ?? console.error;
    this.timeoutMs = options.timeoutMs ?? 2000;
    this.retryDelays = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
    this.onResult = options.onResult ?? (() => undefined);
  }

  /** Purges `keys` on every cache at once; resolves when each has answered or failed its first try. */
  async purge(kind: PurgeKind, keys: readonly string[]): Promise<PurgeOutcome> {
    const outcome: PurgeOutcome = { purged: 0, failed: [] };
    if (keys.length === 0 || this.caches.length === 0) return outcome;
    await Promise.all(
      this.caches.map(async (cache) => {
        const error = await this.tryOnce(cache, kind, keys);
        if (error === null) outcome.purged++;
        else {
          outcome.failed.push({ cache: cache.origin, error });
          this.retryLater(cache, kind, keys, 0, error);
        }
      }),
    );
    return outcome;
  }

  status(): PurgeStatus {
    return {
      caches: this.caches.length,
      sent: this.sent,
      failed: this.failed,
      retrying: this.timers.size,
      givenUp: this.givenUp,
      lastFailure: this.lastFailure,
    };
  }

  close(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.agent.destroy();
  }

  private retryLater(cache: URL, kind: PurgeKind, keys: readonly string[], attempt: number, error: string): void {
    const delay = this.retryDelays[attempt];
    if (delay === undefined) {
      this.givenUp++;
      this.log(`[cdn] gave up ${kind} of ${keys.length} keys on ${cache.origin} after ${attempt + 1} tries: ${error}`);
      return;
    }
    this.log(`[cdn] ${kind} on ${cache.origin} failed (${error}); retrying in ${delay} ms`);
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void this.tryOnce(cache, kind, keys).then((next) => {
        if (next === null) this.log(`[cdn] ${kind} on ${cache.origin} went through on try ${attempt + 2}`);
        else this.retryLater(cache, kind, keys, attempt + 1, next);
      });
    }, delay);
    timer.unref();
    this.timers.add(timer);
  }

  /** One PURGE request; null when the cache confirmed it, else why not. */
  private async tryOnce(cache: URL, kind: PurgeKind, keys: readonly string[]): Promise<string | null> {
    const error = await new Promise<string | null>((resolve) => {
      const request = http.request(
        {
          host: cache.hostname,
          port: cache.port || 80,
          path: cache.pathname || '/',
          method: 'PURGE',
          agent: this.agent,
          headers: { [`xkey-${kind}`]: keys.join(' ') },
          timeout: this.timeoutMs,
        },
        (response) => {
          response.resume();
          response.on('end', () => {
            const status = response.statusCode ?? 0;
            resolve(status >= 200 && status < 300 ? null : `HTTP ${status}`);
          });
          response.on('error', (failure) => resolve(failure.message));
        },
      );
      request.on('timeout', () => request.destroy(new Error(`no answer in ${this.timeoutMs} ms`)));
      request.on('error', (failure) => resolve(failure.message));
      request.end();
    });
    if (error === null) this.sent++;
    else {
      this.failed++;
      this.lastFailure = { cache: cache.origin, error, at: new Date().toISOString() };
    }
    this.onResult(kind, error === null);
    return error;
  }
}
