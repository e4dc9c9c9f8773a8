import { describe, expect, it } from 'vitest';
import { openRateHitStore } from '../db/repositories/rate-hits.ts';
import type { SharedHits } from './hit-log.ts';
import { createBackoffLimiter } from './backoff-limit.ts';

function clock(start = 1_000_000) {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

// The same rules in this process's memory and in the shared store every serving process counts in.
const backends: Array<[string, () => { shared?: SharedHits }]> = [
  ['in memory', () => ({})],
  ['in the shared store', () => ({ shared: { store: openRateHitStore(':memory:'), bucket: 'test' } })],
];

describe.each(backends)('createBackoffLimiter %s', (_name, backend) => {
  it('lets the free hits through, then doubles the wait after each further hit up to the maximum', () => {
    const c = clock();
    const limiter = createBackoffLimiter({
      ...backend(),
      free: 2,
      windowMs: 3_600_000,
      baseDelayMs: 1_000,
      maxDelayMs: 5_000,
      now: c.now,
    });
    expect(limiter.take('k').allowed).toBe(true);
    expect(limiter.take('k').allowed).toBe(true);
    const waits: number[] = [];
    for (let i = 0; i < 5; i++) {
      const refused = limiter.take('k');
      expect(refused.allowed).toBe(false);
      waits.push(refused.retryAfterMs);
      c.advance(refused.retryAfterMs - 1);
      expect(limiter.take('k').allowed).toBe(false);
      c.advance(1);
      expect(limiter.take('k').allowed).toBe(true);
    }
    expect(waits).toEqual([1_000, 2_000, 4_000, 5_000, 5_000]);
    expect(limiter.take('other').allowed).toBe(true);
  });

  it('forgets hits older than the window, and record and refund move the count both ways', () => {
    const c = clock();
    const limiter = createBackoffLimiter({
      ...backend(),
      free: 1,
      windowMs: 10_000,
      baseDelayMs: 1_000,
      maxDelayMs: 60_000,
      now: c.now,
    });
    limiter.record('k');
    limiter.record('k');
    expect(limiter.check('k')).toMatchObject({ allowed: false, retryAfterMs: 2_000 });
    limiter.refund('k');
    expect(limiter.check('k')).toMatchObject({ allowed: false, retryAfterMs: 1_000 });
    c.advance(10_000);
    expect(limiter.check('k').allowed).toBe(true);
    expect(limiter.size()).toBe(0);
  });

  it('keeps at most maxKeys keys', () => {
    const limiter = createBackoffLimiter({
      ...backend(),
      free: 1,
      windowMs: 10_000,
      baseDelayMs: 1_000,
      maxDelayMs: 2_000,
      maxKeys: 100,
    });
    for (let i = 0; i < 1_000; i++) limiter.take(`k${i}`);
    expect(limiter.size()).toBeLessThanOrEqual(100);
  });
});
