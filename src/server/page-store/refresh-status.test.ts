import { afterEach, describe, expect, it, vi } from 'vitest';
import { sumRefreshStatuses, throttledTeller, type ProcessRefreshStatus } from './refresh-status.ts';

const status = (over: Partial<ProcessRefreshStatus>): ProcessRefreshStatus => ({
  queued: 0,
  refreshedSinceLastChange: 0,
  seconds: 0,
  changedAt: 1_000,
  renderedByWorkers: 0,
  patchedByWorkers: 0,
  renamedByWorkers: 0,
  ...over,
});

describe('sumRefreshStatuses', () => {
  it('answers a sibling’s change where this process made none', () => {
    const own = status({ changedAt: 1_000, renderedByWorkers: 40, patchedByWorkers: 30, renamedByWorkers: 4 });
    const sibling = status({
      changedAt: 5_000,
      queued: 120,
      refreshedSinceLastChange: 30,
      seconds: 2,
      renderedByWorkers: 70,
      patchedByWorkers: 5,
      renamedByWorkers: 1,
    });
    expect(sumRefreshStatuses(own, [sibling], 7_000)).toEqual({
      queued: 120,
      refreshedSinceLastChange: 30,
      seconds: 2,
      renderedByWorkers: 110,
      patchedByWorkers: 35,
      renamedByWorkers: 5,
    });
  });

  it('counts pages still waiting from an older change, and the time until now while they wait', () => {
    const older = status({ changedAt: 1_000, queued: 8, refreshedSinceLastChange: 500 });
    const latest = status({ changedAt: 4_000, queued: 0, refreshedSinceLastChange: 12, seconds: 0.5 });
    expect(sumRefreshStatuses(latest, [older], 6_500)).toMatchObject({ queued: 8, refreshedSinceLastChange: 12, seconds: 2.5 });
  });

  it('is this process’s own figures when it is alone', () => {
    const own = status({ changedAt: 3_000, queued: 4, refreshedSinceLastChange: 9, seconds: 1.2, renderedByWorkers: 13 });
    expect(sumRefreshStatuses(own, [])).toEqual({
      queued: 4,
      refreshedSinceLastChange: 9,
      seconds: 1.2,
      renderedByWorkers: 13,
      patchedByWorkers: 0,
      renamedByWorkers: 0,
    });
  });
});

describe('throttledTeller', () => {
  afterEach(() => vi.useRealTimers());

  it('tells at once, then at most once an interval, never dropping the last move', () => {
    vi.useFakeTimers();
    const tell = vi.fn();
    const moved = throttledTeller(tell, 250);
    moved();
    expect(tell).toHaveBeenCalledTimes(1);
    for (let i = 0; i < 50; i++) moved();
    expect(tell).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(250);
    expect(tell).toHaveBeenCalledTimes(2);
    vi.advanceTimersByTime(1_000);
    expect(tell).toHaveBeenCalledTimes(2);
    moved();
    expect(tell).toHaveBeenCalledTimes(3);
  });
});
