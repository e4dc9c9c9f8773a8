import type { PageEncoding } from './compress-page.ts';

/** What the serving thread and a render worker say to each other (render-pool.ts, render-worker.ts). */

/** How urgent a job is: `now` (a reader or a save is waiting) goes before `background`. */
export type RenderPriority = 'now' | 'background';

/** What the pool sends a worker: one page to render, and how urgent it is (the worker runs `now` jobs first). */
export interface WorkerJob {
  id: number;
  key: string;
  priority: RenderPriority;
  /** Encodings to make with the render (those readers took of the page's previous version). */
  encodings?: PageEncoding[];
  /** A stored page's body: compress it to `encodings` instead of rendering `key`. */
  body?: Uint8Array;
}

/** Messages a render worker sends: `{ ready: true }` once, then one answer or error per job. */
export type WorkerMessage<A> = { ready: true } | { id: number; answer: A } | { id: number; error: string };
