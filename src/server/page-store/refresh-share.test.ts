import { describe, expect, it } from 'vitest';
import { shareBackgroundRefresh, shareOf, type RefreshShareNews } from './refresh-share.ts';

function fakeQueue() {
  const queued: string[] = [];
  const changes: number[] = [];
  return {
    queued,
    changes,
    markChange: (at = Date.now()) => void changes.push(at),
    status: () => ({ queued: queued.length, refreshedSinceLastChange: 0, seconds: 0, changedAt: changes.at(-1) ?? 0 }),
    enqueue: (keys: Iterable<string>) => {
      queued.push(...keys);
      return queued.length;
    },
  };
}

const keys = ['/a', '/b', '/c', '/d', '/e'];

describe('shareOf', () => {
  it('splits the keys into disjoint shares that cover them all', () => {
    const shares = [0, 1, 2].map((index) => shareOf(keys, index, 3));
    expect(shares).toEqual([['/a', '/d'], ['/b', '/e'], ['/c']]);
    expect(shareOf(keys, 0, 1)).toEqual(keys);
  });
});

describe('shareBackgroundRefresh', () => {
  it('queues its own share and tells the siblings, who queue theirs from the same change', () => {
    const told: RefreshShareNews[] = [];
    const here = fakeQueue();
    const there = fakeQueue();
    const synced: string[] = [];
    const changer = shareBackgroundRefresh(here, {
      index: 0,
      processes: 2,
      tell: (news) => told.push(news),
      syncVersions: () => {},
    });
    const sibling = shareBackgroundRefresh(there, {
      index: 1,
      processes: 2,
      tell: () => {},
      syncVersions: () => synced.push('synced before queueing'),
    });

    changer.markChange();
    expect(changer.enqueue(keys)).toBe(5);
    expect(here.queued).toEqual(['/a', '/c', '/e']);
    expect(told).toHaveLength(1);

    sibling.take(told[0]!);
    expect(synced).toEqual(['synced before queueing']);
    expect(there.queued).toEqual(['/b', '/d']);
    // Both count the refresh from the changer's moment, so the admin's figures add up.
    expect(there.changes).toEqual([told[0]!.changedAt]);
    expect(here.changes).toEqual([told[0]!.changedAt]);
  });

  it('queues every page itself when it serves alone', () => {
    const here = fakeQueue();
    const alone = shareBackgroundRefresh(here, { index: 0, processes: 1, tell: null, syncVersions: () => {} });
    expect(alone.enqueue(keys)).toBe(5);
    expect(here.queued).toEqual(keys);
  });
});
