/**
 * Where the rate limits' shared hits are kept: the limiters (api/shared-hit-log.ts) count in it,
 * and db/repositories/rate-hits.ts is the one the front server installs. Here, below both, so
 * neither layer imports the other for it.
 *
 * Every function is synchronous: `atomically` runs a limiter's check and count so that no other
 * process interleaves with them.
 */
export interface HitStore {
  atomically<T>(run: () => T): T;
  /** The key's hits after `after` (ms), oldest first. */
  hitsAfter(bucket: string, key: string, after: number): number[];
  /** Adds a hit at `at`, keeping only the key's latest `keep` hits and none at or before `expiredAt`. */
  add(bucket: string, key: string, at: number, keep: number, expiredAt: number): void;
  /** Takes back the key's latest hit. */
  removeLatest(bucket: string, key: string): void;
  forget(bucket: string, key: string): void;
  /** Keys with a hit after `after`. */
  keyCount(bucket: string, after: number): number;
  /** Drops expired hits, then the keys whose latest hit is oldest until at most `keepKeys` remain. */
  prune(bucket: string, expiredAt: number, keepKeys: number): void;
}
