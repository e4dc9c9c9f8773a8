import { describe, expect, it } from 'vitest';
import type { CdnPurgeStatus } from '../../shared/api-types.ts';
import { sumPurgeStatuses } from './change-purge.ts';

const status = (counts: Partial<CdnPurgeStatus>): CdnPurgeStatus => ({
  caches: 1,
  sent: 0,
  failed: 0,
  pending: 0,
  givenUp: 0,
  lastFailure: null,
  ...counts,
});

describe('purge counts over the serving processes', () => {
  it('adds up every count, keeps the number of caches, and names the latest failure', () => {
    const early = { cache: 'http://a', error: 'HTTP 403', at: '2026-11-25T04:00:00.000Z' };
    const late = { cache: 'http://a', error: 'no answer in 2000 ms', at: '2026-11-25T05:00:00.000Z' };
    const sum = sumPurgeStatuses(status({ sent: 3, failed: 1, lastFailure: early }), [
      status({ sent: 1, pending: 2, failed: 2, lastFailure: late }),
      status({ givenUp: 1 }),
    ]);
    expect(sum).toEqual({ caches: 1, sent: 4, failed: 3, pending: 2, givenUp: 1, lastFailure: late });
  });

  it('is this process’s own counts when it serves alone', () => {
    const own = status({ sent: 5, pending: 1 });
    expect(sumPurgeStatuses(own, [])).toEqual(own);
  });
});
