import { createHitLog, type HitLog, type HitLogOptions, type SharedHits } from './hit-log.ts';

/**
 * The hit log kept in a shared store: the same decisions as the in-memory one (hit-log.ts), with
 * each check-and-count in one transaction of the store, so concurrent hits in several processes
 * are counted exactly. Keys are bounded like in memory: every tenth of `maxKeys` new keys (per
 * process), expired hits are swept and the stalest keys dropped to 80% of the bound.
 */
export function createSharedHitLog(shared: SharedHits, options: HitLogOptions): HitLog {
  const { store, bucket } = shared;
  const { windowMs, keep, decide } = options;
  const maxKeys = options.maxKeys ?? 10_000;
  const now = options.now ?? Date.now;
  const pruneEvery = Math.max(1, Math.ceil(maxKeys / 10));
  let newKeys = 0;

  function add(key: string, live: number[], at: number): void {
    store.add(bucket, key, at, keep, at - windowMs);
    if (live.length === 0 && ++newKeys % pruneEvery === 0) store.prune(bucket, at - windowMs, Math.floor(maxKeys * 0.8));
  }

  return {
    take(key) {
      return store.atomically(() => {
        const at = now();
        const live = store.hitsAfter(bucket, key, at - windowMs);
        const decision = decide(live, at);
        if (decision.allowed) add(key, live, at);
        return decision;
      });
    },
    record(key) {
      store.atomically(() => {
        const at = now();
        add(key, store.hitsAfter(bucket, key, at - windowMs), at);
      });
    },
    check(key) {
      const at = now();
      return decide(store.hitsAfter(bucket, key, at - windowMs), at);
    },
    refund: (key) => store.removeLatest(bucket, key),
    forget: (key) => store.forget(bucket, key),
    size: () => store.keyCount(bucket, now() - windowMs),
  };
}

/** The shared log when a store is given, this process's memory otherwise. */
export function createHitLogIn(shared: SharedHits | undefined, options: HitLogOptions): HitLog {
  return shared ? createSharedHitLog(shared, options) : createHitLog(options);
}
