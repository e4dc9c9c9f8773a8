import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PageStore, PutEntry, WholePage } from './store.ts';
import { STORE_WRITE_BATCH, StoreBatch } from './store-batch.ts';

/** A store that records each putMany's keys and answers a page for each. */
function recordingStore() {
  const batches: string[][] = [];
  const store = {
    putMany: (entries: PutEntry[]) => {
      batches.push(entries.map((entry) => entry.key));
      return entries.map((entry) => ({ key: entry.key }) as unknown as WholePage);
    },
  } as unknown as PageStore;
  return { store, batches };
}

const entry = (key: string) => ({ key }) as unknown as PutEntry;

describe('StoreBatch', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('waits gatherMs after its first page, so pages finished on later turns share one transaction', async () => {
    const { store, batches } = recordingStore();
    const batch = new StoreBatch(store, { keepInMemory: false, gatherMs: 20 });
    const stored = [batch.add(entry('/a'))];
    await vi.advanceTimersByTimeAsync(5);
    stored.push(batch.add(entry('/b')));
    await vi.advanceTimersByTimeAsync(5);
    stored.push(batch.add(entry('/c')));
    await vi.advanceTimersByTimeAsync(5);
    expect(batches).toEqual([]);
    await vi.advanceTimersByTimeAsync(5);
    expect(batches).toEqual([['/a', '/b', '/c']]);
    expect((await Promise.all(stored)).map((page) => page?.key)).toEqual(['/a', '/b', '/c']);
  });

  it('without gatherMs writes at the next turn of the event loop', async () => {
    const { store, batches } = recordingStore();
    const batch = new StoreBatch(store, { keepInMemory: true });
    void batch.add(entry('/a'));
    await vi.advanceTimersByTimeAsync(0);
    void batch.add(entry('/b'));
    await vi.advanceTimersByTimeAsync(0);
    expect(batches).toEqual([['/a'], ['/b']]);
  });

  it('writes a full batch at once, and its wait does not write an empty one later', async () => {
    const { store, batches } = recordingStore();
    const batch = new StoreBatch(store, { keepInMemory: false, gatherMs: 20 });
    for (let i = 0; i < STORE_WRITE_BATCH; i++) void batch.add(entry(`/${i}`));
    expect(batches).toHaveLength(1);
    void batch.add(entry('/next'));
    await vi.advanceTimersByTimeAsync(20);
    expect(batches.map((keys) => keys.length)).toEqual([STORE_WRITE_BATCH, 1]);
  });

  it('drop answers the waiting pages null and writes nothing, then or later', async () => {
    const { store, batches } = recordingStore();
    const batch = new StoreBatch(store, { keepInMemory: false, gatherMs: 20 });
    const dropped = batch.add(entry('/a'));
    batch.drop();
    expect(await dropped).toBeNull();
    await vi.advanceTimersByTimeAsync(50);
    expect(batches).toEqual([]);
  });
});
