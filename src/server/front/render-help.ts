/**
 * A save's hot pages (the article, home page 1, /blogs page 1, its category's page 1...) are
 * rendered by two serving processes at once, not only by the one that took the save. Each process
 * has one render worker (one per core): alone, the answering process's worker rendered the four in
 * a row while the other core idled, and the save waited for all of them.
 *
 * node:cluster has no channel between siblings, so a request goes through the first process
 * (cluster-primary.ts), which hands it to another serving process. That one renders the pages into
 * the shared page store, as urgently as its own readers' misses, and says so; the asker waits for
 * that answer before the save answers. With no other process, or no answer in time, the asker
 * renders those pages itself: a save never answers before its hot pages are fresh.
 */

/** Asker to the first process to a helper (`from` added by the first process). */
export interface RenderHelpRequest {
  type: 'render-help';
  id: number;
  keys: string[];
  from?: number;
}

/** Helper to the first process to the asker (`to`); `done: false` when no process could help. */
export interface RenderHelpAnswer {
  type: 'render-helped';
  id: number;
  to?: number;
  done: boolean;
}

export type RenderHelpMessage = RenderHelpRequest | RenderHelpAnswer;

export interface RenderHelpOptions {
  /** Renders these pages now on this process's workers (errors logged, never thrown). */
  renderHere: (keys: string[]) => Promise<void>;
  /** Sends a message to the first process; null when this process serves alone. */
  send: ((message: RenderHelpMessage) => void) | null;
  /** How long to wait for a helper before rendering its pages here. */
  timeoutMs?: number;
}

export interface RenderHelp {
  /** Renders these pages now, half of them (every other one) on another process when there is one. */
  warm(keys: string[]): Promise<{ elsewhere: number }>;
  /** A message from the first process: a request to help, or the answer to one of ours. */
  onMessage(message: unknown): void;
}

function isRenderHelpMessage(message: unknown): message is RenderHelpMessage {
  const type = (message as { type?: unknown } | null)?.type;
  return type === 'render-help' || type === 'render-helped';
}

export function createRenderHelp(options: RenderHelpOptions): RenderHelp {
  const { renderHere, send } = options;
  const timeoutMs = options.timeoutMs ?? 2000;
  const waiting = new Map<number, (done: boolean) => void>();
  let nextId = 1;

  function askForHelp(keys: string[]): Promise<boolean> {
    const id = nextId++;
    return new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => {
        waiting.delete(id);
        resolve(false);
      }, timeoutMs);
      timer.unref();
      waiting.set(id, (done) => {
        clearTimeout(timer);
        waiting.delete(id);
        resolve(done);
      });
      send!({ type: 'render-help', id, keys });
    });
  }

  return {
    async warm(keys) {
      if (!send || keys.length < 2) {
        await renderHere(keys);
        return { elsewhere: 0 };
      }
      // Hot pages come most prominent first; alternating gives each process a fair half.
      const ours = keys.filter((_, i) => i % 2 === 0);
      const theirs = keys.filter((_, i) => i % 2 === 1);
      const helped = askForHelp(theirs);
      await renderHere(ours);
      if (await helped) return { elsewhere: theirs.length };
      await renderHere(theirs);
      return { elsewhere: 0 };
    },
    onMessage(message) {
      if (!isRenderHelpMessage(message)) return;
      if (message.type === 'render-helped') return waiting.get(message.id)?.(message.done);
      const from = message.from;
      if (from === undefined || !send) return;
      void renderHere(message.keys).then(() => send({ type: 'render-helped', id: message.id, to: from, done: true }));
    },
  };
}
