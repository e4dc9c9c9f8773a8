import type { RateLimitDecision } from './rate-limit.ts';

/**
 * A limiter that slows down instead of locking out: `free` hits per key in any `windowMs` go
 * through at once; after that each further hit must wait a delay that doubles with every hit
 * beyond the free ones (baseDelayMs, 2x, 4x, ... up to maxDelayMs) after the key's latest hit.
 *
 * Used for failed logins per address: behind a shared address (a school network, a proxy without
 * TRUST_PROXY) one guesser must not lock every reader out for an hour, yet a guesser still gets
 * only a few tries an hour once the free ones are used up.
 */
export interface BackoffLimiterOptions {
  free: number;
  windowMs: number;
  baseDelayMs: number;
  maxDelayMs: number;
  now?: () => number;
  /** Upper bound on remembered keys, so a flood of distinct keys cannot exhaust memory. */
  maxKeys?: number;
}

export interface BackoffLimiter {
  /** Counts a hit when allowed; a refused hit is not counted. */
  take(key: string): RateLimitDecision;
  /** Counts a hit whatever the state: a failure that must weigh on the key without being refused. */
  record(key: string): void;
  /** What take would answer, without counting anything. */
  check(key: string): RateLimitDecision;
  /** Takes back the key's latest hit. */
  refund(key: string): void;
  size(): number;
}

export function createBackoffLimiter(options: BackoffLimiterOptions): BackoffLimiter {
  const { free, windowMs, baseDelayMs, maxDelayMs } = options;
  if (!Number.isInteger(free) || free < 1) throw new RangeError('free must be a positive integer');
  const now = options.now ?? Date.now;
  const maxKeys = options.maxKeys ?? 10_000;
  // Past this many hits beyond the free ones the delay is at its maximum anyway.
  const keep = free + Math.ceil(Math.log2(Math.max(2, maxDelayMs / baseDelayMs))) + 1;
  const hits = new Map<string, number[]>();

  function liveHits(key: string, at: number): number[] {
    const times = hits.get(key);
    if (!times) return [];
    const live = times.filter((t) => at - t < windowMs);
    if (live.length === 0) hits.delete(key);
    else if (live.length !== times.length) hits.set(key, live);
    return live;
  }

  function decide(live: number[], at: number): RateLimitDecision {
    if (live.length < free) return { allowed: true, remaining: free - live.length - 1, retryAfterMs: 0 };
    const beyond = live.length - free;
    const delay = Math.min(maxDelayMs, baseDelayMs * 2 ** Math.min(beyond, 40));
    const wait = live[live.length - 1]! + delay - at;
    return wait <= 0 ? { allowed: true, remaining: 0, retryAfterMs: 0 } : { allowed: false, remaining: 0, retryAfterMs: wait };
  }

  function add(key: string, live: number[], at: number): void {
    hits.delete(key);
    hits.set(key, [...live, at].slice(-keep));
    if (hits.size > maxKeys) {
      for (const k of [...hits.keys()]) liveHits(k, at);
      for (const k of hits.keys()) {
        if (hits.size <= Math.floor(maxKeys * 0.9)) break;
        hits.delete(k);
      }
    }
  }

  return {
    take(key) {
      const at = now();
      const live = liveHits(key, at);
      const decision = decide(live, at);
      if (decision.allowed) add(key, live, at);
      return decision;
    },
    record(key) {
      const at = now();
      add(key, liveHits(key, at), at);
    },
    check(key) {
      const at = now();
      return decide(liveHits(key, at), at);
    },
    refund(key) {
      const times = hits.get(key);
      if (!times) return;
      if (times.length <= 1) hits.delete(key);
      else hits.set(key, times.slice(0, -1));
    },
    size() {
      return hits.size;
    },
  };
}
