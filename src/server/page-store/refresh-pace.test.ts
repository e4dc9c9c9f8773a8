import { describe, expect, it } from 'vitest';
import { paceRefresh, PACE_GRACE_SECONDS, refreshOnPace, type PacedQueue } from './refresh-pace.ts';
import { RefreshQueue, RequestCounts } from './refresh-queue.ts';
import { untilTrue } from '../../../tests/support/wait.ts';

describe('refreshOnPace', () => {
  it('asks nothing in the first second, then the pace times the seconds after it', () => {
    expect(refreshOnPace(0, PACE_GRACE_SECONDS, 320)).toBe(true);
    expect(refreshOnPace(319, PACE_GRACE_SECONDS + 1, 320)).toBe(false);
    expect(refreshOnPace(320, PACE_GRACE_SECONDS + 1, 320)).toBe(true);
    expect(refreshOnPace(3_000, PACE_GRACE_SECONDS + 10, 320)).toBe(false);
  });
});

/** A queue the test moves by hand, on a clock the test moves by hand. */
function handQueue() {
  const state = { queued: 0, refreshed: 0, clock: 0 };
  const listeners: Array<() => void> = [];
  const queue: PacedQueue = {
    queued: () => state.queued,
    refreshedInAll: () => state.refreshed,
    onChange: (listener) => listeners.push(listener),
  };
  const changed = () => listeners.forEach((listener) => listener());
  return { state, queue, changed, now: () => state.clock };
}

describe('paceRefresh', () => {
  it('keeps the workers in idle time while on pace, at their share behind it, and back once drained', async () => {
    const { state, queue, changed, now } = handQueue();
    const asked: boolean[] = [];
    const stop = paceRefresh(queue, { backgroundInIdleTime: (on) => asked.push(on) }, 100, 5, now);
    changed();
    expect(asked).toEqual([]);
    state.queued = 1_000;
    changed();
    expect(asked).toEqual([true]);
    state.clock = (PACE_GRACE_SECONDS + 2) * 1000;
    state.refreshed = 150;
    await untilTrue(() => asked.at(-1) === false, 'the workers to be put back behind the pace');
    state.refreshed = 250;
    await untilTrue(() => asked.at(-1) === true, 'the workers in idle time again on pace');
    state.queued = 0;
    await untilTrue(() => asked.at(-1) === false, 'the workers back at their share once drained');
    const count = asked.length;
    // Drained, nothing looks at the queue until pages come again.
    changed();
    expect(asked).toHaveLength(count);
    state.queued = 5;
    changed();
    expect(asked).toHaveLength(count + 1);
    stop();
    expect(asked.at(-1)).toBe(false);
  });

  it('counts the pace from when the queue filled, so changes coming faster than the grace do not keep it in idle time', async () => {
    const { state, queue, changed, now } = handQueue();
    const asked: boolean[] = [];
    const stop = paceRefresh(queue, { backgroundInIdleTime: (on) => asked.push(on) }, 100, 5, now);
    state.queued = 40;
    changed();
    expect(asked).toEqual([true]);
    // A change every half second for three seconds (a script seeding the site), while a busy
    // machine leaves the idle workers nothing: the pages keep coming, none is refreshed.
    for (let tick = 1; tick <= 6; tick++) {
      state.clock = tick * 500;
      state.queued += 40;
      changed();
    }
    await untilTrue(() => asked.at(-1) === false, 'the workers to be put back at their share');
    // Once they catch up with the pace from the queue's start, idle time is theirs again.
    state.refreshed = 100 * (3 - PACE_GRACE_SECONDS);
    await untilTrue(() => asked.at(-1) === true, 'the workers in idle time once on pace');
    stop();
  });

  it('on a real queue, changes every tenth of a second with nothing refreshed put the workers back after the grace', async () => {
    const asked: boolean[] = [];
    const queue = new RefreshQueue(
      { render: () => new Promise<void>(() => undefined), isStale: () => true, concurrency: 1 },
      new RequestCounts(),
    );
    const stop = paceRefresh(queue, { backgroundInIdleTime: (on) => asked.push(on) }, 100, 5);
    let page = 0;
    const changes = setInterval(() => {
      queue.markChange();
      queue.enqueue([`/p/${page++}`]);
    }, 100);
    try {
      queue.markChange();
      queue.enqueue(['/first']);
      expect(asked).toEqual([true]);
      await untilTrue(() => asked.at(-1) === false, 'the workers back at their share while changes keep coming');
    } finally {
      clearInterval(changes);
      stop();
    }
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
