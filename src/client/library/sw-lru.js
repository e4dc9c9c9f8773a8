/*
 * The byte bound of the service worker's "read lately" cache. Workbox's ExpirationPlugin bounds a
 * cache by entry count or age, not by bytes, so this small plugin keeps an index of each entry's
 * size and last use and drops the least recently used past the bound.
 */

/** Where the index lives: in the cache itself, so logout's deleting the cache drops it too. */
export const RECENT_INDEX = '/__sw/recent-index';

/**
 * Which keys to drop so the entries' total size is at most `limitBytes`: the least recently used
 * first. `index`: { [key]: { size, at } }, `at` the last use in ms. An entry larger than the whole
 * bound is dropped too.
 */
export function chooseEvictions(index, limitBytes) {
  const entries = Object.entries(index).sort((a, b) => a[1].at - b[1].at);
  let total = entries.reduce((sum, [, entry]) => sum + entry.size, 0);
  const drop = [];
  for (const [key, entry] of entries) {
    if (total <= limitBytes) break;
    drop.push(key);
    total -= entry.size;
  }
  return drop;
}

/** A Workbox plugin for the strategies writing to `cacheName`: sizes on write, last use on read. */
export function byteBoundPlugin(cacheName, limitBytes) {
  // Index updates run one at a time, so two entries stored together cannot lose each other's line.
  let queue = Promise.resolve();
  const update = (change) => {
    queue = queue
      .then(async () => {
        const cache = await caches.open(cacheName);
        const index = (await (await cache.match(RECENT_INDEX))?.json().catch(() => null)) ?? {};
        if (!change(index)) return;
        for (const key of chooseEvictions(index, limitBytes)) {
          await cache.delete(key);
          delete index[key];
        }
        await cache.put(RECENT_INDEX, Response.json(index));
      })
      .catch(() => {});
    return queue;
  };
  return {
    async cacheDidUpdate({ request, newResponse }) {
      const size = (await newResponse.blob()).size;
      await update((index) => (index[request.url] = { size, at: Date.now() }));
    },
    async cachedResponseWillBeUsed({ request, cachedResponse }) {
      if (cachedResponse) await update((index) => index[request.url] && (index[request.url].at = Date.now()));
      return cachedResponse;
    },
  };
}
