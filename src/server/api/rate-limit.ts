import type { RateLimitDecision, SharedHits } from './hit-log.ts';
import { createHitLogIn } from './shared-hit-log.ts';

/**
 * An in-memory sliding-window limiter: at most `limit` hits per key in any `windowMs`. It keeps the
 * times of the last `limit` hits per key, so "5 per 10 minutes" means exactly that, with no burst
 * of twice the limit at a window boundary as a fixed window would allow.
 *
 * With `shared`, the hits are counted in a store every serving process shares (the front server's
 * SQLite file), so a limit holds exactly however many processes serve; without it they live in
 * this process's memory (astro dev, unit tests).
 */
export interface RateLimiterOptions {
  limit: number;
  windowMs: number;
  /** Injectable clock for tests. */
  now?: () => number;
  /** Upper bound on remembered keys, so a flood of distinct keys cannot exhaust memory. */
  maxKeys?: number;
  /** Count in this shared store, under this bucket name. */
  shared?: SharedHits | undefined;
}

export type { RateLimitDecision };

export interface RateLimiter {
  /** Counts a hit for the key when allowed; a refused hit is not counted. */
  take(key: string): RateLimitDecision;
  /** What take would answer, without counting anything. */
  check(key: string): RateLimitDecision;
  /** Takes back the key's latest hit: an attempt counted up front that turned out not to count. */
  refund(key: string): void;
  /** Forgets a key, for example after a successful login. */
  reset(key: string): void;
  /** How many keys are remembered (for tests and monitoring). */
  size(): number;
}

export function createRateLimiter(options: RateLimiterOptions): RateLimiter {
  const { limit, windowMs } = options;
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError('limit must be a positive integer');
  if (!(windowMs > 0)) throw new RangeError('windowMs must be positive');
  // A key never holds more than `limit` live hits: a hit is only added when fewer are live.
  const log = createHitLogIn(options.shared, { windowMs, keep: limit, maxKeys: options.maxKeys, now: options.now, decide });

  function decide(live: number[], at: number): RateLimitDecision {
    if (live.length < limit) return { allowed: true, remaining: limit - live.length - 1, retryAfterMs: 0 };
    const oldest = live[live.length - limit]!;
    return { allowed: false, remaining: 0, retryAfterMs: Math.max(1, oldest + windowMs - at) };
  }

  return { take: log.take, check: log.check, refund: log.refund, reset: log.forget, size: log.size };
}

/** Whole seconds for a Retry-After header, never 0. */
export function retryAfterSeconds(decision: RateLimitDecision): number {
  return Math.max(1, Math.ceil(decision.retryAfterMs / 1000));
}
