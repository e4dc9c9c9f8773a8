import type { PageStore, PutEntry, WholePage } from './store.ts';

/** Rendered pages written to the store per transaction: a commit per page was most of the serving thread's cost of a page. */
export const STORE_WRITE_BATCH = 32;

export interface StoreBatchOptions {
  /** False for renders no reader waits for: a new page is not pushed into memory, a copy held there is replaced. */
  keepInMemory: boolean;
  /** Told how many of each written batch were stored. */
  onStored?: (count: number) => void;
}

interface Waiting {
  entry: PutEntry;
  resolve: (page: WholePage | null) => void;
}

/**
 * Pages rendered with nobody waiting (the pre-render, the background refresh), written to the
 * store several to a transaction: when the batch is full, or at the next turn of the event loop
 * (so a page never waits for renders still running), and at `flush()`.
 */
export class StoreBatch {
  private pending: Waiting[] = [];
  private scheduled = false;
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
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  flush(): void {
    this.scheduled = false;
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
    const dropped = this.pending;
    this.pending = [];
    for (const waiting of dropped) waiting.resolve(null);
  }
}
