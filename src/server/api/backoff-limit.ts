import type { RateLimitDecision, SharedHits } from './hit-log.ts';
import { createHitLogIn } from './shared-hit-log.ts';

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
  /** Count in this shared store, under this bucket name (see rate-limit.ts). */
  shared?: SharedHits | undefined;
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
  // Past this many hits beyond the free ones the delay is at its maximum anyway.
  const keep = free + Math.ceil(Math.log2(Math.max(2, maxDelayMs / baseDelayMs))) + 1;
  const log = createHitLogIn(options.shared, { windowMs, keep, maxKeys: options.maxKeys, now: options.now, decide });

  function decide(live: number[], at: number): RateLimitDecision {
    if (live.length < free) return { allowed: true, remaining: free - live.length - 1, retryAfterMs: 0 };
    const beyond = live.length - free;
    const delay = Math.min(maxDelayMs, baseDelayMs * 2 ** Math.min(beyond, 40));
    const wait = live[live.length - 1]! + delay - at;
    return wait <= 0 ? { allowed: true, remaining: 0, retryAfterMs: 0 } : { allowed: false, remaining: 0, retryAfterMs: wait };
  }

  return { take: log.take, record: log.record, check: log.check, refund: log.refund, size: log.size };
}
