import { describe, expect, it, vi } from 'vitest';
import { RefreshQueue, RequestCounts } from './refresh-queue.ts';

describe('RefreshQueue', () => {
  it('re-renders the most requested pages first, each once, and reports the drain', async () => {
    const counts = new RequestCounts();
    for (let i = 0; i < 3; i++) counts.note('/popular');
    counts.note('/some');
    const rendered: string[] = [];
    let drained: () => void = () => undefined;
    const done = new Promise<void>((resolve) => (drained = resolve));
    const queue = new RefreshQueue(
      {
        render: async (key) => {
          rendered.push(key);
          if (rendered.length === 3) drained();
        },
        isStale: () => true,
      },
      counts,
    );
    queue.markChange();
    expect(queue.enqueue(['/rare', '/some', '/popular', '/some'])).toBe(3);
    await done;
    await new Promise((resolve) => setImmediate(resolve));
    expect(rendered).toEqual(['/popular', '/some', '/rare']);
    expect(queue.status()).toMatchObject({ queued: 0, refreshedSinceLastChange: 3 });
  });

  it('sorts a long queue again at most once a second, reading each count once a sort', async () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    try {
      const counts = new RequestCounts();
      const reads = vi.spyOn(counts, 'of');
      let drained: () => void = () => undefined;
      const done = new Promise<void>((resolve) => (drained = resolve));
      let rendered = 0;
      let readsBefore = 0;
      const queue = new RefreshQueue(
        {
          render: async () => {
            rendered++;
            if (rendered === 60) {
              readsBefore = reads.mock.calls.length;
              vi.advanceTimersByTime(1000);
            }
            if (rendered === 100) drained();
          },
          isStale: () => true,
        },
        counts,
      );
      queue.enqueue(Array.from({ length: 100 }, (_, i) => `/page/${i}`));
      await done;
      // Sorted once while 60 pages were taken, each count read once.
      expect(readsBefore).toBe(100);
      // Sorted once more, a second later: the pages still queued then.
      expect(reads.mock.calls.length).toBeGreaterThan(100);
      expect(reads.mock.calls.length).toBeLessThanOrEqual(141);
    } finally {
      vi.useRealTimers();
    }
  });

  it('skips a page a reader already had rendered, and stays within its bound', async () => {
    const rendered: string[] = [];
    const queue = new RefreshQueue(
      { render: async (key) => void rendered.push(key), isStale: (key) => key !== '/fresh', maxQueued: 2 },
      new RequestCounts(),
    );
    expect(queue.enqueue(['/fresh', '/a', '/b'])).toBeLessThanOrEqual(2);
    while (queue.queued() > 0) await new Promise((resolve) => setImmediate(resolve));
    expect(rendered).not.toContain('/fresh');
  });
});
