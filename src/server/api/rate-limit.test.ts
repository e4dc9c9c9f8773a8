import { describe, expect, it } from 'vitest';
import { openRateHitStore } from '../db/repositories/rate-hits.ts';
import type { SharedHits } from './hit-log.ts';
import { createRateLimiter, retryAfterSeconds } from './rate-limit.ts';

function clock(start = 1_000_000) {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

const MINUTE = 60_000;

// The same rules in this process's memory and in the shared store every serving process counts in.
const backends: Array<[string, () => { shared?: SharedHits }]> = [
  ['in memory', () => ({})],
  ['in the shared store', () => ({ shared: { store: openRateHitStore(':memory:'), bucket: 'test' } })],
];

describe.each(backends)('createRateLimiter %s', (_name, backend) => {
  it('allows up to the limit, then refuses with the wait until the oldest hit expires', () => {
    const c = clock();
    const limiter = createRateLimiter({ ...backend(), limit: 5, windowMs: 10 * MINUTE, now: c.now });
    const remaining = [];
    for (let i = 0; i < 5; i++) {
      const d = limiter.take('ip');
      expect(d.allowed).toBe(true);
      remaining.push(d.remaining);
      c.advance(MINUTE);
    }
    expect(remaining).toEqual([4, 3, 2, 1, 0]);
    const refused = limiter.take('ip');
    expect(refused).toEqual({ allowed: false, remaining: 0, retryAfterMs: 5 * MINUTE });
    expect(retryAfterSeconds(refused)).toBe(300);
  });

  it('is a sliding window: each old hit frees one slot when it leaves the window', () => {
    const c = clock();
    const limiter = createRateLimiter({ ...backend(), limit: 2, windowMs: 10_000, now: c.now });
    limiter.take('k');
    c.advance(4_000);
    limiter.take('k');
    c.advance(5_999);
    expect(limiter.take('k').allowed).toBe(false);
    c.advance(1);
    expect(limiter.take('k').allowed).toBe(true);
    expect(limiter.take('k')).toMatchObject({ allowed: false, retryAfterMs: 4_000 });
  });

  it('does not allow a double burst across a window boundary', () => {
    const c = clock();
    const limiter = createRateLimiter({ ...backend(), limit: 5, windowMs: 10 * MINUTE, now: c.now });
    c.advance(10 * MINUTE - 1);
    for (let i = 0; i < 5; i++) expect(limiter.take('ip').allowed).toBe(true);
    c.advance(2);
    expect(limiter.take('ip').allowed).toBe(false);
  });

  it('does not count refused hits, so waiting out the window is enough', () => {
    const c = clock();
    const limiter = createRateLimiter({ ...backend(), limit: 1, windowMs: 1_000, now: c.now });
    limiter.take('k');
    for (let i = 0; i < 10; i++) {
      c.advance(90);
      expect(limiter.take('k').allowed).toBe(false);
    }
    c.advance(100);
    expect(limiter.take('k').allowed).toBe(true);
  });

  it('keeps keys apart', () => {
    const limiter = createRateLimiter({ ...backend(), limit: 1, windowMs: 1_000, now: clock().now });
    expect(limiter.take('a').allowed).toBe(true);
    expect(limiter.take('a').allowed).toBe(false);
    expect(limiter.take('b').allowed).toBe(true);
  });

  it('check answers like take without counting', () => {
    const limiter = createRateLimiter({ ...backend(), limit: 1, windowMs: 1_000, now: clock().now });
    expect(limiter.check('k')).toEqual({ allowed: true, remaining: 0, retryAfterMs: 0 });
    expect(limiter.check('k').allowed).toBe(true);
    limiter.take('k');
    expect(limiter.check('k')).toMatchObject({ allowed: false, retryAfterMs: 1_000 });
  });

  it('reset forgets a key', () => {
    const limiter = createRateLimiter({ ...backend(), limit: 1, windowMs: 1_000, now: clock().now });
    limiter.take('k');
    limiter.reset('k');
    expect(limiter.take('k').allowed).toBe(true);
  });

  it('forgets expired keys and never remembers more than maxKeys', () => {
    const c = clock();
    const limiter = createRateLimiter({ ...backend(), limit: 3, windowMs: 1_000, now: c.now, maxKeys: 100 });
    for (let i = 0; i < 100; i++) limiter.take(`old-${i}`);
    c.advance(1_000);
    limiter.take('new-0');
    expect(limiter.size()).toBeLessThanOrEqual(101);
    for (let i = 1; i < 1_000; i++) limiter.take(`new-${i}`);
    expect(limiter.size()).toBeLessThanOrEqual(100);
    // The most recent keys are the ones kept.
    expect(limiter.check('new-999').remaining).toBe(1);
  });

  it('rounds Retry-After up to whole seconds and never answers 0', () => {
    expect(retryAfterSeconds({ allowed: false, remaining: 0, retryAfterMs: 1 })).toBe(1);
    expect(retryAfterSeconds({ allowed: false, remaining: 0, retryAfterMs: 1_001 })).toBe(2);
    expect(retryAfterSeconds({ allowed: true, remaining: 3, retryAfterMs: 0 })).toBe(1);
  });

  it('refuses nonsense settings', () => {
    expect(() => createRateLimiter({ ...backend(), limit: 0, windowMs: 1_000 })).toThrow(RangeError);
    expect(() => createRateLimiter({ ...backend(), limit: 1.5, windowMs: 1_000 })).toThrow(RangeError);
    expect(() => createRateLimiter({ ...backend(), limit: 1, windowMs: 0 })).toThrow(RangeError);
  });
});
