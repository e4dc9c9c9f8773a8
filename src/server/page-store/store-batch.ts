import type { PageStore, PutEntry, WholePage } from './store.ts';

/** Rendered pages written to the store per transaction: a commit per page was most of the serving thread's cost of a page. */
export const STORE_WRITE_BATCH = 32;

/**
 * How long the background's batches wait for more pages (`gatherMs`). The refresh after a rename
 * wrote 1.2 pages a commit waiting only for the next turn of the event loop; with this wait, 19.
 */
export const BACKGROUND_GATHER_MS = 20;

export interface StoreBatchOptions {
  /** False for renders no reader waits for: a new page is not pushed into memory, a copy held there is replaced. */
  keepInMemory: boolean;
  /** Told how many of each written batch were stored. */
  onStored?: (count: number) => void;
  /**
   * How long a batch waits for more pages after its first, at most (0: until the next turn of the
   * event loop). For writes nobody waits for: with a few renders in flight, the next turn found one
   * page ready, and the refresh after a rename committed its pages one at a time.
   */
  gatherMs?: number;
}

interface Waiting {
  entry: PutEntry;
  resolve: (page: WholePage | null) => void;
}

/**
 * Pages rendered with nobody waiting (the pre-render, the background refresh), written to the
 * store several to a transaction: when the batch is full, or `gatherMs` after its first page (at
 * the next turn of the event loop when that is 0), and at `flush()`.
 */
export class StoreBatch {
  private pending: Waiting[] = [];
  private scheduled: { cancel: () => void } | null = null;
  private readonly store: PageStore;
  private readonly options: StoreBatchOptions;

  constructor(store: PageStore, options: StoreBatchOptions) {
    this.store = store;
    this.options = options;
  }

  /** Queues a page; resolves with what `store.put` would answer once its batch is written. */
  add(entry: PutEntry): Promise<WholePage | null> {
    return new Promise((resolve) => {
      this.pending.push({ entry, resolve });
      if (this.pending.length >= STORE_WRITE_BATCH) this.flush();
      else if (!this.scheduled) {
        const gatherMs = this.options.gatherMs ?? 0;
        if (gatherMs > 0) {
          const timer = setTimeout(() => this.flush(), gatherMs);
          this.scheduled = { cancel: () => clearTimeout(timer) };
        } else {
          const immediate = setImmediate(() => this.flush());
          this.scheduled = { cancel: () => clearImmediate(immediate) };
        }
      }
    });
  }

  flush(): void {
    this.unschedule();
    if (this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    const pages = this.store.putMany(
      batch.map((waiting) => waiting.entry),
      { keepInMemory: this.options.keepInMemory },
    );
    this.options.onStored?.(pages.filter(Boolean).length);
    batch.forEach((waiting, i) => waiting.resolve(pages[i]!));
  }

  /** Nothing more is stored (the pre-render was stopped); those waiting get null. */
  drop(): void {
    this.unschedule();
    const dropped = this.pending;
    this.pending = [];
    for (const waiting of dropped) waiting.resolve(null);
  }

  private unschedule(): void {
    this.scheduled?.cancel();
    this.scheduled = null;
  }
}
