/**
 * An in-memory sliding-window limiter: at most `limit` hits per key in any `windowMs`. It keeps the
 * times of the last `limit` hits per key, so "5 per 10 minutes" means exactly that, with no burst
 * of twice the limit at a window boundary as a fixed window would allow.
 *
 * State lives in this process only: a restart forgets it, which is acceptable for slowing down
 * comment spam and password guessing on a single small server (security.md section 6).
 */
export interface RateLimiterOptions {
  limit: number;
  windowMs: number;
  /** Injectable clock for tests. */
  now?: () => number;
  /** Upper bound on remembered keys, so a flood of distinct keys cannot exhaust memory. */
  maxKeys?: number;
}

export interface RateLimitDecision {
  allowed: boolean;
  /** Hits still allowed in the current window after this one. */
  remaining: number;
  /** When refused: milliseconds until the next hit would be allowed; otherwise 0. */
  retryAfterMs: number;
}

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
  const now = options.now ?? Date.now;
  const maxKeys = options.maxKeys ?? 10_000;
  // Map order is insertion order; a key is re-inserted on every hit, so the first keys are the stalest.
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
    if (live.length < limit) return { allowed: true, remaining: limit - live.length - 1, retryAfterMs: 0 };
    const oldest = live[live.length - limit]!;
    return { allowed: false, remaining: 0, retryAfterMs: Math.max(1, oldest + windowMs - at) };
  }

  // Sweeps expired keys, then drops the stalest down to 90% of the cap, so a flood of new keys
  // pays for one sweep per many hits rather than one per hit.
  function prune(at: number): void {
    for (const key of [...hits.keys()]) liveHits(key, at);
    const target = Math.floor(maxKeys * 0.9);
    for (const key of hits.keys()) {
      if (hits.size <= target) break;
      hits.delete(key);
    }
  }

  return {
    take(key) {
      const at = now();
      const live = liveHits(key, at);
      const decision = decide(live, at);
      if (!decision.allowed) return decision;
      hits.delete(key);
      // live holds fewer than `limit` times here, so the list never grows past the limit.
      hits.set(key, [...live, at]);
      if (hits.size > maxKeys) prune(at);
      return decision;
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
    reset(key) {
      hits.delete(key);
    },
    size() {
      return hits.size;
    },
  };
}

/** Whole seconds for a Retry-After header, never 0. */
export function retryAfterSeconds(decision: RateLimitDecision): number {
  return Math.max(1, Math.ceil(decision.retryAfterMs / 1000));
}
