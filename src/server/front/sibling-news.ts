/**
 * What one serving process learns that its siblings must know too: a database write that failed
 * for want of storage (so every process's /healthz reports it, not only the one whose write
 * failed) and how many of its purges of the shared caches are pending (so the admin sees the sum,
 * whichever process answers). node:cluster has no channel between siblings: the news goes through
 * the first process (cluster-primary.ts), which hands it to every other serving process.
 */

/** One piece of news; `from` is added by the first process (the sender's index). */
export interface SiblingNews {
  type: 'sibling-news';
  topic: string;
  payload: unknown;
  from?: number;
}

export function isSiblingNews(message: unknown): message is SiblingNews {
  return (message as { type?: unknown } | null)?.type === 'sibling-news';
}

export interface SiblingChannel {
  /** Tells every other serving process (nothing when this one serves alone). */
  tell(topic: string, payload: unknown): void;
  /** Calls `handler` with each sibling's news on `topic`, and the sender's index. */
  listen(topic: string, handler: (payload: unknown, from: number) => void): void;
  /** A message from the first process: news from a sibling, or something else (ignored). */
  onMessage(message: unknown): void;
}

export function createSiblingChannel(send: ((message: SiblingNews) => void) | null): SiblingChannel {
  const handlers = new Map<string, Array<(payload: unknown, from: number) => void>>();
  return {
    tell(topic, payload) {
      if (!send) return;
      try {
        send({ type: 'sibling-news', topic, payload });
      } catch {
        // The channel to the first process is closing (shutdown): siblings are stopping too.
      }
    },
    listen(topic, handler) {
      handlers.set(topic, [...(handlers.get(topic) ?? []), handler]);
    },
    onMessage(message) {
      if (!isSiblingNews(message)) return;
      for (const handler of handlers.get(message.topic) ?? []) handler(message.payload, message.from ?? -1);
    },
  };
}
