/**
 * What one serving process learns that its siblings must know too: a database write that failed
 * for want of storage (so every process's /healthz reports it, not only the one whose write
 * failed), how many of its purges of the shared caches are pending (so the admin sees the sum,
 * whichever process answers), and a change's tag versions when the page store's file could not
 * carry them (a full disk: the change answers only once every sibling has them). node:cluster has
 * no channel between siblings: the news goes through the first process (cluster-primary.ts),
 * which hands it to every other serving process.
 */

/**
 * One piece of news; `from` is added by the first process (the sender's index). `id`: the sender
 * waits for every sibling to have handled it (`ask`). `to`: for that one sibling only (an ack).
 */
export interface SiblingNews {
  type: 'sibling-news';
  topic: string;
  payload: unknown;
  from?: number;
  id?: number;
  to?: number;
}

/** The first process to an asker: which siblings it handed the news to (their indexes). */
export const RELAYED_TOPIC = 'relayed';
const ACK_TOPIC = 'ack';

export function isSiblingNews(message: unknown): message is SiblingNews {
  return (message as { type?: unknown } | null)?.type === 'sibling-news';
}

export interface SiblingChannel {
  /** Tells every other serving process (nothing when this one serves alone). */
  tell(topic: string, payload: unknown): void;
  /**
   * Tells every other serving process and resolves once each has handled it, or after
   * `timeoutMs` (a sibling that stopped answering must not hold a save): true when all did.
   */
  ask(topic: string, payload: unknown, timeoutMs: number): Promise<boolean>;
  /** Calls `handler` with each sibling's news on `topic`, and the sender's index. */
  listen(topic: string, handler: (payload: unknown, from: number) => void): void;
  /** A message from the first process: news from a sibling, or something else (ignored). */
  onMessage(message: unknown): void;
}

interface Asked {
  relayedTo: number[] | null;
  acked: Set<number>;
  done: (all: boolean) => void;
}

export function createSiblingChannel(send: ((message: SiblingNews) => void) | null): SiblingChannel {
  const handlers = new Map<string, Array<(payload: unknown, from: number) => void>>();
  const asked = new Map<number, Asked>();
  let nextId = 1;
  const post = (message: SiblingNews): boolean => {
    try {
      send!(message);
      return true;
    } catch {
      // The channel to the first process is closing (shutdown): siblings are stopping too.
      return false;
    }
  };
  const settle = (id: number) => {
    const entry = asked.get(id);
    if (entry?.relayedTo && entry.relayedTo.every((index) => entry.acked.has(index))) entry.done(true);
  };
  return {
    tell(topic, payload) {
      if (send) post({ type: 'sibling-news', topic, payload });
    },
    ask(topic, payload, timeoutMs) {
      if (!send) return Promise.resolve(true);
      const id = nextId++;
      return new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => finish(false), timeoutMs);
        const finish = (all: boolean) => {
          clearTimeout(timer);
          asked.delete(id);
          resolve(all);
        };
        asked.set(id, { relayedTo: null, acked: new Set(), done: finish });
        if (!post({ type: 'sibling-news', topic, payload, id })) finish(false);
      });
    },
    listen(topic, handler) {
      handlers.set(topic, [...(handlers.get(topic) ?? []), handler]);
    },
    onMessage(message) {
      if (!isSiblingNews(message)) return;
      if (message.topic === RELAYED_TOPIC || message.topic === ACK_TOPIC) {
        const { id, to } = message.payload as { id: number; to?: number[] };
        const entry = asked.get(id);
        if (!entry) return;
        if (message.topic === RELAYED_TOPIC) entry.relayedTo = to ?? [];
        else entry.acked.add(message.from ?? -1);
        return settle(id);
      }
      for (const handler of handlers.get(message.topic) ?? []) handler(message.payload, message.from ?? -1);
      if (message.id !== undefined && message.from !== undefined)
        post({ type: 'sibling-news', topic: ACK_TOPIC, payload: { id: message.id }, to: message.from });
    },
  };
}
