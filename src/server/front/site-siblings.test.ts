import { describe, expect, it } from 'vitest';
import type { CdnPurgeStatus } from '../../shared/api-types.ts';
import { connectSiblings } from './site-siblings.ts';
import type { SiblingNews } from './sibling-news.ts';

const purges = (pending: number): CdnPurgeStatus => ({ caches: 1, sent: 3, failed: 0, pending, givenUp: 0, lastFailure: null });

describe('connectSiblings', () => {
  it("forgets a sibling's pending purges when a process started in its place says hello", () => {
    const sent: SiblingNews[] = [];
    const connected = connectSiblings((message) => void sent.push(message), {
      ownPurges: () => purges(0),
      onBumps: () => undefined,
      log: () => undefined,
    });
    try {
      connected.siblings.onMessage({ type: 'sibling-news', topic: 'purge-status', payload: purges(2), from: 1 });
      expect(connected.siblingPurges.get(1)?.pending).toBe(2);

      connected.siblings.onMessage({ type: 'sibling-news', topic: 'hello', payload: null, from: 1 });
      expect(connected.siblingPurges.has(1)).toBe(false);
      expect(sent.some((message) => message.topic === 'purge-status')).toBe(true);
    } finally {
      connected.disconnect();
    }
  });
});
