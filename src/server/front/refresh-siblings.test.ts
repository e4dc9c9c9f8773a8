import { describe, expect, it } from 'vitest';
import { untilTrue } from '../../../tests/support/wait.ts';
import { RefreshQueue, RequestCounts } from '../page-store/refresh-queue.ts';
import { shareRefreshWithSiblings } from './refresh-siblings.ts';
import { createSiblingChannel, type SiblingNews } from './sibling-news.ts';

const news = (topic: string, payload: unknown, from: number): SiblingNews => ({ type: 'sibling-news', topic, payload, from });

function firstOfTwo() {
  const sent: SiblingNews[] = [];
  const siblings = createSiblingChannel((message) => void sent.push(message));
  const queue = new RefreshQueue({ render: () => new Promise(() => undefined), isStale: () => true }, new RequestCounts());
  const counts = { rendered: 0, patched: 0 };
  const renderListeners: (() => void)[] = [];
  const shared = shareRefreshWithSiblings(siblings, queue, {
    inCluster: true,
    index: 0,
    processes: 2,
    rendered: () => counts.rendered,
    patched: () => counts.patched,
    renamed: () => 0,
    syncVersions: () => undefined,
    onRendered: (listener) => void renderListeners.push(listener),
  });
  /** A worker's render settles, and its answer, taken after, was a patch. */
  const renderPatched = () => {
    counts.rendered++;
    for (const listener of renderListeners) listener();
    counts.patched++;
  };
  return { sent, siblings, shared, renderPatched };
}

describe('shareRefreshWithSiblings', () => {
  it("counts a sibling's queue until a process started in its place says hello, then forgets it", () => {
    const { sent, siblings, shared } = firstOfTwo();
    const changedAt = Date.now() - 2000;
    siblings.onMessage(
      news('refresh-status', { queued: 500, refreshedSinceLastChange: 40, seconds: 2, changedAt, renderedByWorkers: 40 }, 1),
    );
    expect(shared.status().queued).toBe(500);

    // The sibling died with its queue; the process started in its place says hello.
    siblings.onMessage(news('hello', null, 1));
    expect(shared.status()).toMatchObject({ queued: 0, refreshedSinceLastChange: 0, renderedByWorkers: 0 });
    // And is told this process's own figures.
    expect(sent.filter((message) => message.topic === 'refresh-status')).toHaveLength(1);
  });

  it("keeps the latest change's figures when a process started without a change tells its own", () => {
    const { siblings, shared } = firstOfTwo();
    const changedAt = Date.now() - 2000;
    siblings.onMessage(
      news('refresh-status', { queued: 100, refreshedSinceLastChange: 60, seconds: 2, changedAt, renderedByWorkers: 60 }, 1),
    );
    // This process never saw a change: its queue is empty and its moment unset, so the sibling's change is the latest.
    expect(shared.status()).toMatchObject({ queued: 100, refreshedSinceLastChange: 60 });
  });

  it('tells its siblings a render outside its queue, its patch counted, without the queue moving', async () => {
    const { sent, renderPatched } = firstOfTwo();
    const told = () => sent.filter((message) => message.topic === 'refresh-status').map((message) => message.payload);
    renderPatched();
    await untilTrue(() => told().length > 0, 'the render to be told');
    expect(told()).toEqual([expect.objectContaining({ queued: 0, renderedByWorkers: 1, patchedByWorkers: 1 })]);
  });
});
