import { describe, expect, it, vi } from 'vitest';
import { wakeRenderersEverywhere } from './render-wake.ts';

function fakeSiblings() {
  const told: string[] = [];
  const handlers = new Map<string, (payload: unknown, from: number) => void>();
  return {
    told,
    hear: (topic: string) => handlers.get(topic)?.(null, 1),
    listen: (topic: string, handler: (payload: unknown, from: number) => void) => void handlers.set(topic, handler),
    tell: (topic: string) => void told.push(topic),
  };
}

describe('wakeRenderersEverywhere', () => {
  it("wakes this process's workers on every call and tells the siblings at most twice per rest period", () => {
    vi.useFakeTimers();
    try {
      const pool = { wake: vi.fn() };
      const siblings = fakeSiblings();
      const wake = wakeRenderersEverywhere(pool, siblings, 60);
      wake();
      wake();
      expect(pool.wake).toHaveBeenCalledTimes(2);
      expect(siblings.told).toEqual(['render-wake']);
      vi.advanceTimersByTime(29_000);
      wake();
      expect(siblings.told).toHaveLength(1);
      vi.advanceTimersByTime(1_000);
      wake();
      expect(siblings.told).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it("starts this process's workers when a sibling says an admin is at work", () => {
    const pool = { wake: vi.fn() };
    const siblings = fakeSiblings();
    wakeRenderersEverywhere(pool, siblings, 60);
    siblings.hear('render-wake');
    expect(pool.wake).toHaveBeenCalledTimes(1);
  });

  it('does nothing when the workers never rest, and tells no one when the process serves alone', () => {
    const pool = { wake: vi.fn() };
    const siblings = fakeSiblings();
    wakeRenderersEverywhere(pool, siblings, 0)();
    expect([pool.wake.mock.calls.length, siblings.told.length]).toEqual([0, 0]);
    wakeRenderersEverywhere(pool, null, 60)();
    expect(pool.wake).toHaveBeenCalledTimes(1);
  });
});
