/**
 * The times of recent hits per key, shared by the sliding-window limiters (rate-limit.ts,
 * backoff-limit.ts), which differ only in how they decide from a key's live hits. Only hits
 * younger than `windowMs` count; each key keeps at most `keep` times, and at most `maxKeys` keys
 * are remembered, so a flood of distinct keys cannot exhaust memory.
 *
 * `createHitLog` keeps the hits in this process's memory (a restart forgets them); given a shared
 * `HitStore` (the front server installs one on the app context), `createSharedHitLog`
 * (shared-hit-log.ts) keeps them where every serving process counts against the same numbers.
 */
import { RecencyMap } from '../../shared/recency-map.ts';
import type { HitStore } from '../hit-store.ts';

export interface RateLimitDecision {
  allowed: boolean;
  /** Hits still allowed in the current window after this one. */
  remaining: number;
  /** When refused: milliseconds until the next hit would be allowed; otherwise 0. */
  retryAfterMs: number;
}

export interface HitLogOptions {
  windowMs: number;
  /** How many of a key's latest hits are worth keeping: older ones cannot change a decision. */
  keep: number;
  /** Upper bound on remembered keys; 10,000 unless given. */
  maxKeys?: number | undefined;
  /** Injectable clock for tests. */
  now?: (() => number) | undefined;
  /** The limiter's rule: what a new hit gets, given the key's live hits (oldest first). */
  decide: (live: number[], at: number) => RateLimitDecision;
}

/** Which shared store a limiter counts in, and its name there; without it, this process's memory. */
export interface SharedHits {
  store: HitStore;
  bucket: string;
}

export interface HitLog {
  /** Counts a hit when allowed; a refused hit is not counted. */
  take(key: string): RateLimitDecision;
  /** Counts a hit whatever the decision. */
  record(key: string): void;
  /** What take would answer, without counting anything. */
  check(key: string): RateLimitDecision;
  /** Takes back the key's latest hit. */
  refund(key: string): void;
  forget(key: string): void;
  size(): number;
}

export function createHitLog({ windowMs, keep, maxKeys = 10_000, now = Date.now, decide }: HitLogOptions): HitLog {
  // In order of use: the first keys are the stalest (near enough, recency-map.ts).
  const hits = new RecencyMap<string, number[]>();

  function liveHits(key: string, at: number): number[] {
    const times = hits.peek(key);
    if (!times) return [];
    const live = times.filter((t) => at - t < windowMs);
    if (live.length === 0) hits.delete(key);
    else if (live.length !== times.length) hits.update(key, live);
    return live;
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

  function add(key: string, live: number[], at: number): void {
    hits.set(key, [...live, at].slice(-keep));
    if (hits.size > maxKeys) prune(at);
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
      const times = hits.peek(key);
      if (!times) return;
      if (times.length <= 1) hits.delete(key);
      else hits.update(key, times.slice(0, -1));
    },
    forget(key) {
      hits.delete(key);
    },
    size() {
      return hits.size;
    },
  };
}
