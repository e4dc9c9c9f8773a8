import { describe, expect, it } from 'vitest';
import { paceRefresh, PACE_GRACE_SECONDS, refreshOnPace, type PacedQueue } from './refresh-pace.ts';
import { RefreshQueue, RequestCounts } from './refresh-queue.ts';
import { untilTrue } from '../../../tests/support/wait.ts';

describe('refreshOnPace', () => {
  it('asks nothing in the first second, then the pace times the seconds after it', () => {
    expect(refreshOnPace({ refreshedSinceLastChange: 0, seconds: PACE_GRACE_SECONDS }, 320)).toBe(true);
    expect(refreshOnPace({ refreshedSinceLastChange: 319, seconds: PACE_GRACE_SECONDS + 1 }, 320)).toBe(false);
    expect(refreshOnPace({ refreshedSinceLastChange: 320, seconds: PACE_GRACE_SECONDS + 1 }, 320)).toBe(true);
    expect(refreshOnPace({ refreshedSinceLastChange: 3_000, seconds: PACE_GRACE_SECONDS + 10 }, 320)).toBe(false);
  });
});

describe('paceRefresh', () => {
  it('keeps the workers in idle time while on pace, at their share behind it, and back once drained', async () => {
    const status = { queued: 0, refreshedSinceLastChange: 0, seconds: 0, changedAt: 1 };
    const listeners: Array<() => void> = [];
    const queue: PacedQueue = {
      status: () => ({ ...status }),
      queued: () => status.queued,
      onChange: (listener) => listeners.push(listener),
    };
    const asked: boolean[] = [];
    const stop = paceRefresh(queue, { backgroundInIdleTime: (on) => asked.push(on) }, 100, 5);
    const changed = () => listeners.forEach((listener) => listener());
    changed();
    expect(asked).toEqual([]);
    status.queued = 1_000;
    changed();
    expect(asked).toEqual([true]);
    status.seconds = PACE_GRACE_SECONDS + 2;
    status.refreshedSinceLastChange = 150;
    await untilTrue(() => asked.at(-1) === false, 'the workers to be put back behind the pace');
    status.refreshedSinceLastChange = 250;
    await untilTrue(() => asked.at(-1) === true, 'the workers in idle time again on pace');
    status.queued = 0;
    await untilTrue(() => asked.at(-1) === false, 'the workers back at their share once drained');
    const count = asked.length;
    // Drained, nothing looks at the queue until pages come again.
    changed();
    expect(asked).toHaveLength(count);
    status.queued = 5;
    changed();
    expect(asked).toHaveLength(count + 1);
    stop();
    expect(asked.at(-1)).toBe(false);
  });

  it('follows a real queue: idle time while it drains, back at the end', async () => {
    const asked: boolean[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const queue = new RefreshQueue({ render: () => held, isStale: () => true, concurrency: 2 }, new RequestCounts());
    const stop = paceRefresh(queue, { backgroundInIdleTime: (on) => asked.push(on) }, 1, 5);
    queue.markChange();
    queue.enqueue(['/a', '/b', '/c']);
    expect(asked).toEqual([true]);
    release();
    await untilTrue(() => queue.queued() === 0 && asked.at(-1) === false, 'the queue to drain and the workers to be put back');
    stop();
  });
});
