/**
 * The background refresh: pages a change left stale are served as they were (marked STALE) while
 * this queue re-renders them, most-requested first. Bounded, de-duplicated, a few renders at a
 * time, and it yields to the event loop between renders so readers are never held up for long.
 */
export interface RefreshStatus {
  /** Pages waiting or being re-rendered. */
  queued: number;
  /** Pages re-rendered since the last change. */
  refreshedSinceLastChange: number;
  /** Seconds from the last change until the queue drained (or until now while it runs). */
  seconds: number;
  /** When the last change was (Date.now()): which process's figures are the latest change's. */
  changedAt: number;
}

export interface RefreshQueueOptions {
  /** Re-renders one page (and stores it); errors are logged and the page dropped from the queue. */
  render: (key: string) => Promise<unknown>;
  /** Whether the page still needs a render when its turn comes (a reader may have had it done). */
  isStale: (key: string) => boolean;
  concurrency?: number;
  maxQueued?: number;
}

/** Request counts per stored page, to pick the most requested first; halved when it grows large. */
export class RequestCounts {
  private readonly counts = new Map<string, number>();
  private readonly maxKeys: number;

  constructor(maxKeys = 100_000) {
    this.maxKeys = maxKeys;
  }

  note(key: string): void {
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
    if (this.counts.size > this.maxKeys) this.decay();
  }

  of(key: string): number {
    return this.counts.get(key) ?? 0;
  }

  /** Old popularity fades: halve every count and forget the pages that fall to zero. */
  private decay(): void {
    for (const [key, count] of this.counts) {
      if (count <= 1) this.counts.delete(key);
      else this.counts.set(key, count >> 1);
    }
  }
}

const RESORT_EVERY = 32;
/**
 * The queue is sorted again at most this often: after a rename it holds every page of the site,
 * and a sort of 40,000 keys takes the serving thread 10-20 ms.
 */
const RESORT_MIN_MS = 1000;

export class RefreshQueue {
  private readonly waiting = new Set<string>();
  private order: string[] = [];
  private sinceSort = 0;
  private sortedAt = -Infinity;
  private unsorted = false;
  private running = 0;
  /** Pages refreshed since the queue was made; the latest change's are those after `refreshedAtChange`. */
  private refreshed = 0;
  private refreshedAtChange = 0;
  private changedAt = performance.now();
  /** 0 until the first change: a process started in a dead one's place must not look like the latest change. */
  private changedAtWall = 0;
  private drainedAt: number | null = null;
  private readonly listeners: Array<() => void> = [];
  private closed = false;
  private readonly concurrency: number;
  private readonly maxQueued: number;

  private readonly options: RefreshQueueOptions;
  private readonly counts: RequestCounts;

  constructor(options: RefreshQueueOptions, counts: RequestCounts) {
    this.options = options;
    this.counts = counts;
    this.concurrency = options.concurrency ?? 1;
    this.maxQueued = options.maxQueued ?? 100_000;
  }

  /** A change happened (at `at`, Date.now(): a sibling's change): the drain figures start again. */
  markChange(at = Date.now()): void {
    this.changedAt = performance.now() - Math.max(0, Date.now() - at);
    this.changedAtWall = at;
    this.drainedAt = null;
    this.refreshedAtChange = this.refreshed;
    this.changed();
  }

  /** Calls `listener` whenever the status moves (a change, pages queued, a page refreshed). */
  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  /** Queues pages for a re-render; a page already queued is not added twice. Returns how many are queued. */
  enqueue(keys: Iterable<string>): number {
    for (const key of keys) {
      if (this.closed || this.waiting.has(key) || this.waiting.size >= this.maxQueued) continue;
      this.waiting.add(key);
      this.order.push(key);
      this.unsorted = true;
    }
    if (this.waiting.size > 0) this.drainedAt = null;
    this.pump();
    this.changed();
    return this.queued();
  }

  queued(): number {
    return this.waiting.size + this.running;
  }

  /** Pages refreshed since the queue was made, across changes (the pace's count, refresh-pace.ts). */
  refreshedInAll(): number {
    return this.refreshed;
  }

  status(): RefreshStatus {
    const end = this.drainedAt ?? (this.queued() === 0 ? this.changedAt : performance.now());
    return {
      queued: this.queued(),
      refreshedSinceLastChange: this.refreshed - this.refreshedAtChange,
      seconds: Math.round((end - this.changedAt) / 100) / 10,
      changedAt: this.changedAtWall,
    };
  }

  close(): void {
    this.closed = true;
    this.waiting.clear();
    this.order = [];
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }

  private next(): string | undefined {
    if ((this.unsorted || ++this.sinceSort >= RESORT_EVERY) && performance.now() - this.sortedAt >= RESORT_MIN_MS) {
      // Counts move while the queue drains: sort again now and then, not per page. Pages queued
      // since the last sort are taken first until the next one.
      const ranked: Array<{ key: string; count: number }> = [];
      for (const key of this.order) if (this.waiting.has(key)) ranked.push({ key, count: this.counts.of(key) });
      // Ascending, so pop() takes the most requested; each count read once, not per comparison.
      ranked.sort((a, b) => a.count - b.count);
      this.order = ranked.map((entry) => entry.key);
      this.unsorted = false;
      this.sinceSort = 0;
      this.sortedAt = performance.now();
    }
    let key = this.order.pop();
    while (key !== undefined && !this.waiting.has(key)) key = this.order.pop();
    if (key !== undefined) this.waiting.delete(key);
    return key;
  }

  private pump(): void {
    while (!this.closed && this.running < this.concurrency && this.waiting.size > 0) {
      const key = this.next();
      if (key === undefined) break;
      this.running++;
      // setImmediate: readers' requests that arrived meanwhile are answered before the next render.
      setImmediate(() => void this.run(key));
    }
  }

  private async run(key: string): Promise<void> {
    try {
      if (!this.closed && this.options.isStale(key)) {
        await this.options.render(key);
        this.refreshed++;
      }
    } catch (error) {
      console.error(`[page-store] background refresh of ${key} failed:`, error);
    } finally {
      this.running--;
      if (this.queued() === 0 && this.drainedAt === null) this.drainedAt = performance.now();
      this.pump();
      this.changed();
    }
  }
}
