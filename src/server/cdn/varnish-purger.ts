import http from 'node:http';
import type { CdnPurgeReport, CdnPurgeStatus } from '../../shared/api-types.ts';

/**
 * Sends xkey purges to every configured Varnish (PURGE_VARNISH). A purge is a `PURGE /` request
 * whose `xkey-purge` header (drop now) or `xkey-softpurge` header (keep serving the old copy
 * while a fresh one is fetched) lists the keys, with the shared secret in `X-Purge-Secret`;
 * deploy/varnish.vcl honours it only from its acl and with that secret.
 *
 * The write that caused a purge has committed, and a reader or an admin is waiting for its
 * answer: the caller waits at most `waitMs` for the caches to confirm. A purge not confirmed by
 * then is pending: its try goes on, a failure is logged and retried with backoff in the
 * background, never thrown, and the admin sees the count of pending purges in `status()`.
 */

export type PurgeKind = 'purge' | 'softpurge';

/** The header carrying PURGE_SECRET; deploy/varnish.vcl reads the same name. */
export const PURGE_SECRET_HEADER = 'X-Purge-Secret';

export interface PurgerOptions {
  caches: URL[];
  /** PURGE_SECRET, sent with every purge. */
  secret: string;
  log?: (line: string) => void;
  /** The longest `purge()` waits for the caches' confirmation (PURGE_WAIT_MS). */
  waitMs?: number;
  /** Per try, queueing for a connection included; a try past it is abandoned and retried. */
  timeoutMs?: number;
  /** Waits between tries after the first failure. */
  retryDelaysMs?: number[];
  /** Counts each purge sent or failed (metrics). */
  onResult?: (kind: PurgeKind, ok: boolean) => void;
  /** After any count in `status()` changed (sibling processes are told: front/site.ts). */
  onStatusChange?: () => void;
}

const DEFAULT_RETRY_DELAYS_MS = [250, 1000, 4000, 15_000, 60_000];

/** What `purge()` reports for a cache whose first try has not answered within the wait. */
const NOT_YET = Symbol('not yet');

export class VarnishPurger {
  private readonly caches: URL[];
  private readonly secret: string;
  private readonly log: (line: string) => void;
  private readonly waitMs: number;
  private readonly timeoutMs: number;
  private readonly retryDelays: number[];
  private readonly onResult: (kind: PurgeKind, ok: boolean) => void;
  private readonly onStatusChange: () => void;
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
  private readonly timers = new Set<NodeJS.Timeout>();
  private sent = 0;
  private failed = 0;
  private pending = 0;
  private givenUp = 0;
  private closed = false;
  private lastFailure: CdnPurgeStatus['lastFailure'] = null;

  constructor(options: PurgerOptions) {
    this.caches = options.caches;
    this.secret = options.secret;
    this.log = options.log ?? console.error;
    this.waitMs = options.waitMs ?? 250;
    this.timeoutMs = options.timeoutMs ?? 2000;
    this.retryDelays = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
    this.onResult = options.onResult ?? (() => undefined);
    this.onStatusChange = options.onStatusChange ?? (() => undefined);
  }

  /**
   * Purges `keys` on every cache at once; resolves when each has answered its first try or the
   * wait is over, whichever comes first. Whatever is not confirmed by then goes on in the background.
   */
  async purge(kind: PurgeKind, keys: readonly string[]): Promise<CdnPurgeReport> {
    const outcome: CdnPurgeReport = { purged: 0, failed: [] };
    if (keys.length === 0 || this.caches.length === 0 || this.closed) return outcome;
    await Promise.all(
      this.caches.map(async (cache) => {
        const first = await this.within(this.deliver(cache, kind, keys), this.waitMs);
        if (first === null) outcome.purged++;
        else
          outcome.failed.push({
            cache: cache.origin,
            error: first === NOT_YET ? `no answer within ${this.waitMs} ms, still trying` : first,
          });
      }),
    );
    return outcome;
  }

  /** The counts since the server started (the admin's page-refresh status shows them). */
  status(): CdnPurgeStatus {
    return {
      caches: this.caches.length,
      sent: this.sent,
      failed: this.failed,
      pending: this.pending,
      givenUp: this.givenUp,
      lastFailure: this.lastFailure,
    };
  }

  close(): void {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.agent.destroy();
  }

  /**
   * Starts one purge on one cache and its retries; pending until confirmed or given up. Resolves
   * with the first try's outcome (null: confirmed).
   */
  private deliver(cache: URL, kind: PurgeKind, keys: readonly string[]): Promise<string | null> {
    this.pending++;
    this.onStatusChange();
    const first = this.tryOnce(cache, kind, keys);
    void first.then((error) => {
      if (error === null) {
        this.pending--;
        this.onStatusChange();
      } else this.retryLater(cache, kind, keys, 0, error);
    });
    return first;
  }

  private async within<T>(promise: Promise<T>, ms: number): Promise<T | typeof NOT_YET> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<typeof NOT_YET>((resolve) => (timer = setTimeout(() => resolve(NOT_YET), ms)));
    try {
      return await Promise.race([promise, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  private retryLater(cache: URL, kind: PurgeKind, keys: readonly string[], attempt: number, error: string): void {
    const delay = this.retryDelays[attempt];
    if (delay === undefined || this.closed) {
      this.pending--;
      if (this.closed) return;
      this.givenUp++;
      this.onStatusChange();
      this.log(`[cdn] gave up ${kind} of ${keys.length} keys on ${cache.origin} after ${attempt + 1} tries: ${error}`);
      return;
    }
    this.log(`[cdn] ${kind} on ${cache.origin} failed (${error}); retrying in ${delay} ms`);
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void this.tryOnce(cache, kind, keys).then((next) => {
        if (next === null) {
          this.pending--;
          this.onStatusChange();
          this.log(`[cdn] ${kind} on ${cache.origin} went through on try ${attempt + 2}`);
        } else this.retryLater(cache, kind, keys, attempt + 1, next);
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
          headers: { [`xkey-${kind}`]: keys.join(' '), [PURGE_SECRET_HEADER]: this.secret },
        },
        (response) => {
          response.resume();
          response.on('end', () => {
            clearTimeout(deadline);
            const status = response.statusCode ?? 0;
            resolve(status >= 200 && status < 300 ? null : `HTTP ${status}`);
          });
          response.on('error', (failure) => resolve(failure.message));
        },
      );
      // From the start, not from the socket: a cache that accepts and never answers holds every
      // pooled socket, and the next tries would otherwise wait for one without a bound.
      const deadline = setTimeout(() => request.destroy(new Error(`no answer in ${this.timeoutMs} ms`)), this.timeoutMs);
      deadline.unref();
      request.on('error', (failure) => {
        clearTimeout(deadline);
        resolve(failure.message);
      });
      request.end();
    });
    if (error === null) this.sent++;
    else {
      this.failed++;
      this.lastFailure = { cache: cache.origin, error, at: new Date().toISOString() };
    }
    this.onResult(kind, error === null);
    this.onStatusChange();
    return error;
  }
}
