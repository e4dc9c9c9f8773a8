import { describe, expect, it } from 'vitest';
import { idleCollection, loadFullCollection } from './idle-collection.ts';

/** Resolves once `collect` has run, with how many times it ran by then. */
function counted() {
  let runs = 0;
  let ran!: () => void;
  const first = new Promise<void>((resolve) => (ran = resolve));
  return {
    collect: () => {
      runs++;
      ran();
    },
    first,
    runs: () => runs,
  };
}

describe('idleCollection', () => {
  it('collects once after the jobs drain, not again until another job came', async () => {
    const counter = counted();
    const collection = idleCollection(counter.collect, 10);
    collection.busy();
    collection.idle();
    await counter.first;
    collection.idle();
    // Any collection still owed would fire before this longer timer, set after it (timers keep order).
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(counter.runs()).toBe(1);
    collection.busy();
    collection.idle();
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(counter.runs()).toBe(2);
    collection.stop();
  });

  it('does not collect while a job that came during the wait runs', async () => {
    const counter = counted();
    const collection = idleCollection(counter.collect, 10);
    collection.busy();
    collection.idle();
    collection.busy();
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(counter.runs()).toBe(0);
    collection.idle();
    await counter.first;
    expect(counter.runs()).toBe(1);
  });

  it('never collects for a worker that had nothing to do', async () => {
    const counter = counted();
    const collection = idleCollection(counter.collect, 5);
    collection.idle();
    await new Promise((resolve) => setTimeout(resolve, 25));
    expect(counter.runs()).toBe(0);
  });

  it('stop cancels a pending collection', async () => {
    const counter = counted();
    const collection = idleCollection(counter.collect, 5);
    collection.busy();
    collection.idle();
    collection.stop();
    await new Promise((resolve) => setTimeout(resolve, 25));
    expect(counter.runs()).toBe(0);
  });
});

describe('loadFullCollection', () => {
  it('frees what nothing holds any more, without a global gc', async () => {
    const collect = loadFullCollection();
    expect(collect).not.toBeNull();
    expect('gc' in globalThis).toBe(false);
    // Made in a function of its own: no variable of this test holds it.
    const ref = ((): WeakRef<object> => new WeakRef({ pages: new Array(1000).fill('x') }))();
    // A WeakRef's target survives until the end of the current job, whatever is collected.
    await new Promise((resolve) => setImmediate(resolve));
    collect!();
    expect(ref.deref()).toBeUndefined();
  });
});
