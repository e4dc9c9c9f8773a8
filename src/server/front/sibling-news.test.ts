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
});
