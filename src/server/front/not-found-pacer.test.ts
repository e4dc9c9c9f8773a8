import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { NotFoundPacer } from './not-found-pacer.ts';

describe('NotFoundPacer', () => {
  let clock = 0;
  beforeEach(() => {
    vi.useFakeTimers();
    clock = 0;
  });
  afterEach(() => vi.useRealTimers());

  /** Moves the pacer's clock and the timers together. */
  function advance(ms: number): void {
    clock += ms;
    vi.advanceTimersByTime(ms);
  }

  it('answers a burst at once, then one per 1/rate seconds in arrival order', () => {
    const pacer = new NotFoundPacer(4, 100, () => clock);
    const answered: number[] = [];
    for (let i = 0; i < 10; i++) pacer.admit(() => answered.push(i));
    advance(0);
    expect(answered).toEqual([0, 1, 2, 3]);
    expect(pacer.queued).toBe(6);
    advance(250);
    expect(answered).toEqual([0, 1, 2, 3, 4]);
    advance(500);
    expect(answered).toEqual([0, 1, 2, 3, 4, 5, 6]);
    advance(1000);
    expect(answered).toHaveLength(10);
    expect(pacer.queued).toBe(0);
  });

  it('answers at once again once the rate allows', () => {
    const pacer = new NotFoundPacer(2, 100, () => clock);
    const answered: string[] = [];
    for (const name of ['a', 'b', 'c']) pacer.admit(() => answered.push(name));
    advance(500);
    expect(answered).toEqual(['a', 'b', 'c']);
    advance(5000);
    pacer.admit(() => answered.push('d'));
    pacer.admit(() => answered.push('e'));
    advance(0);
    expect(answered).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('never holds more than maxWaiting, and answers all waiting ones when flushed', () => {
    const pacer = new NotFoundPacer(1, 3, () => clock);
    const answered: number[] = [];
    for (let i = 0; i < 6; i++) pacer.admit(() => answered.push(i));
    advance(0);
    // One from the burst, three waiting, two past the bound answered at once.
    expect(pacer.queued).toBe(3);
    expect(answered).toEqual([0, 4, 5]);
    pacer.flush();
    expect(answered).toEqual([0, 4, 5, 1, 2, 3]);
    expect(pacer.queued).toBe(0);
  });
});
