import { describe, expect, it } from 'vitest';
import { describeCdnTrouble } from './use-refresh-drain.ts';

const idle = { caches: 1, sent: 4, failed: 0, pending: 0, givenUp: 0, lastFailure: null };

describe('the refresh status line on a shared cache', () => {
  it('says nothing when every purge went through', () => {
    expect(describeCdnTrouble({ purged: 1, failed: [] })).toBeNull();
    expect(describeCdnTrouble(undefined, idle)).toBeNull();
  });

  it('names the cache that missed the purge of this save', () => {
    expect(describeCdnTrouble({ purged: 0, failed: [{ cache: 'http://10.0.0.5:6081', error: 'HTTP 503' }] })).toBe(
      'Saved, but the cache at http://10.0.0.5:6081 did not confirm its purge (HTTP 503); the purge is pending, readers there may see the old page meanwhile.',
    );
  });

  it('reports pending purges, then purges given up', () => {
    const failure = { cache: 'http://10.0.0.5:6081', error: 'HTTP 503', at: '2026-01-01T00:00:00Z' };
    expect(describeCdnTrouble(undefined, { ...idle, pending: 1, lastFailure: failure })).toBe(
      'A cache purge is pending (last failure: http://10.0.0.5:6081: HTTP 503).',
    );
    // A purge past the save's wait that has not failed yet: pending all the same.
    expect(describeCdnTrouble(undefined, { ...idle, pending: 2 })).toBe('2 cache purges are pending.');
    expect(describeCdnTrouble(undefined, { ...idle, givenUp: 2, lastFailure: failure })).toMatch(
      /^2 cache purges failed every retry/,
    );
  });
});
