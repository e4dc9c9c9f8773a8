import { describe, expect, it } from 'vitest';
import { createSiblingChannel, type SiblingNews } from './sibling-news.ts';

describe('the sibling channel', () => {
  it('sends news through the first process and hands a sibling’s news to the handlers of its topic', () => {
    const sent: SiblingNews[] = [];
    const channel = createSiblingChannel((message) => sent.push(message));
    const heard: Array<[unknown, number]> = [];
    channel.listen('purge-status', (payload, from) => heard.push([payload, from]));

    channel.tell('purge-status', { pending: 2 });
    expect(sent).toEqual([{ type: 'sibling-news', topic: 'purge-status', payload: { pending: 2 } }]);

    channel.onMessage({ type: 'sibling-news', topic: 'purge-status', payload: { pending: 1 }, from: 1 });
    channel.onMessage({ type: 'sibling-news', topic: 'write-trouble', payload: {}, from: 1 });
    channel.onMessage({ type: 'render-help', id: 1, keys: [] });
    expect(heard).toEqual([[{ pending: 1 }, 1]]);
  });

  it('tells nothing when the process serves alone, and a closed channel does not throw', () => {
    expect(() => createSiblingChannel(null).tell('hello', null)).not.toThrow();
    const closing = createSiblingChannel(() => {
      throw new Error('channel closed');
    });
    expect(() => closing.tell('hello', null)).not.toThrow();
  });

  it('an ask resolves once every sibling the first process handed it to has handled it', async () => {
    const sent: SiblingNews[] = [];
    const asker = createSiblingChannel((message) => sent.push(message));
    let settled: boolean | undefined;
    const asked = asker.ask('tag-bumps', [['blog:1', 3, true]], 60_000).then((all) => (settled = all));
    const question = sent[0]!;
    expect(question).toMatchObject({ topic: 'tag-bumps', id: expect.any(Number) });

    // The first process handed it to siblings 1 and 2; each handles it and acks to the asker.
    asker.onMessage({ type: 'sibling-news', topic: 'relayed', payload: { id: question.id, to: [1, 2] } });
    const acks: SiblingNews[] = [];
    const heard: unknown[] = [];
    for (const index of [1, 2]) {
      const sibling = createSiblingChannel((message) => acks.push({ ...message, from: index }));
      sibling.listen('tag-bumps', (payload) => heard.push(payload));
      sibling.onMessage({ ...question, from: 0 });
    }
    expect(heard).toHaveLength(2);
    expect(acks.map((ack) => [ack.topic, ack.to])).toEqual([
      ['ack', 0],
      ['ack', 0],
    ]);

    asker.onMessage(acks[0]);
    asker.onMessage(acks[0]); // the same sibling twice is still one
    await Promise.resolve();
    expect(settled).toBeUndefined();
    asker.onMessage(acks[1]);
    await asked;
    expect(settled).toBe(true);
  });

  it('an ask nobody confirms gives up after its time, and one with no sibling or alone resolves at once', async () => {
    const unanswered = createSiblingChannel(() => {});
    await expect(unanswered.ask('tag-bumps', [], 20)).resolves.toBe(false);

    const sent: SiblingNews[] = [];
    const lonely = createSiblingChannel((message) => sent.push(message));
    const asked = lonely.ask('tag-bumps', [], 60_000);
    lonely.onMessage({ type: 'sibling-news', topic: 'relayed', payload: { id: sent[0]!.id, to: [] } });
    await expect(asked).resolves.toBe(true);

    await expect(createSiblingChannel(null).ask('tag-bumps', [], 60_000)).resolves.toBe(true);
  });
});
