import type { PageEncoding } from './compress-page.ts';
import type { TagLabel } from './store-file.ts';
import type { SearchPageDecision } from '../ports.ts';

/** What the serving thread and a render worker say to each other (render-pool.ts, render-worker.ts). */

/** How urgent a job is: `now` (a reader or a save is waiting) goes before `background`. */
export type RenderPriority = 'now' | 'background';

/**
 * A stored page that only a change of the nav or footer (page-store/chrome-patch.ts) or of the
 * top-viewed list (block-patch.ts) left stale: the worker swaps in the new header and footer, or
 * the new list, instead of rendering the page, when it has them (else it renders the page and
 * keeps the parts it rendered for the next pages).
 */
export interface PagePatch {
  /** The stored page in one copy: its brotli copy, or the body as rendered. */
  copy: Uint8Array;
  encoding: 'br' | 'identity';
  contentType: string;
  policy: string | null;
  tags: string[];
  /**
   * The versions the header and footer show (`nav`, `settings`), when the nav left the page stale:
   * fragments are kept for one of them; null when the header and footer are fresh.
   */
  chrome: string | null;
  /**
   * When the top-viewed list left the page stale, the store's count of changes when the job was
   * made: a list rendered since is current (a change after it, to an article the list shows, is a
   * new count); null when the page's list is fresh.
   */
  block: string | null;
  /**
   * The page's other stale tags, each with what it shows for it (`category-name:ID` and the
   * category's name before its rename): the worker writes the current one in (category-name-patch.ts).
   */
  labels: TagLabel[];
}

/**
 * What a job asks of its worker besides the page: encodings to make, a body to compress, a page to
 * patch, or a search page to render (never stored).
 */
export interface JobWork {
  /** Encodings to make with the render (those readers took of the page's previous version). */
  encodings?: PageEncoding[];
  /** A stored page's body: compress it to `encodings` instead of rendering `key`. */
  body?: Uint8Array;
  patch?: PagePatch;
  /**
   * `key` is a search page (/blogs?search=…): searched on the worker's own connection and rendered
   * with what the front server decided, below the serving threads like a background render
   * (content/search-page-render.ts).
   */
  searchPage?: SearchPageDecision;
}

/**
 * Whether a job runs at the worker's hurry nice value: a render someone waits for, except a search
 * page. That one waits its turn with the pages readers wait for but runs at the worker's own nice
 * value, so that readers of stored pages win the CPU over searches. The worker sets its value by
 * this for each job it starts, and the pool for the jobs a worker holds.
 */
export function runsHurried(priority: RenderPriority, work: JobWork): boolean {
  return priority === 'now' && !work.searchPage;
}

/** What the pool sends a worker: one page to render, and how urgent it is (the worker runs `now` jobs first). */
export interface WorkerJob extends JobWork {
  id: number;
  key: string;
  priority: RenderPriority;
}

/** A worker thread's nice values: its own, and the one renders someone waits for run at. */
export interface ThreadNice {
  rest: number;
  hurry: number;
}

/**
 * Messages a render worker sends: `{ ready: true }` once (with its thread's id in the kernel's
 * terms where it has one, and its nice values where it may lower its own), then one answer or
 * error per job.
 */
export type WorkerMessage<A> =
  | { ready: true; tid?: number; nice?: ThreadNice }
  | { id: number; answer: A }
  | { id: number; error: string };
