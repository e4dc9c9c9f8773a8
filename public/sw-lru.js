/*
 * The size bound of the service worker's "read lately" cache, apart so a unit test can run it
 * (src/client/library/sw-lru.test.ts). Loaded into the worker by importScripts('/sw-lru.js').
 */

/**
 * Which keys to drop so the entries' total size is at most `limitBytes`: the least recently used
 * first. `index`: { [key]: { size, at } }, `at` the last use in ms. An entry larger than the whole
 * bound is dropped too.
 */
function chooseEvictions(index, limitBytes) {
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

self.chooseEvictions = chooseEvictions;
