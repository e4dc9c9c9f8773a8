import type { AddedEncoding, StoreFile } from './store-file.ts';
import type { StoreGuard } from './store-guard.ts';

/**
 * Accesses are kept in memory and written in one batch before an eviction, or when this many
 * piled up. The write runs on the serving thread: 1,000 rows of the narrow access table take
 * about 2 ms there, where 10,000 took 20 ms or more.
 */
const ACCESS_BATCH = 1_000;

/**
 * Reads are noted only once the file holds this share of its budget. Below it no eviction is
 * near; pages keep the time they were stored until then. Noting every read from the file cost
 * the serving thread 8% of its time under random readers of a site that fills half its budget.
 */
const NOTE_READS_FROM = 0.5;

/** Encodings made on request are written to the file this many to a transaction at most. */
const ENCODING_BATCH = 64;

/**
 * The store's writes that are batched, and its disk budget: the bytes the file's pages take,
 * reads noted as access times (least recently used pages go first past the budget), and the
 * encodings readers had made, written together at the next turn of the event loop.
 */
export class StoreDisk {
  used: number;
  /** Bytes this process added since `used` was last read from the file. */
  private sinceCount = 0;
  private readonly limit: number;
  private readonly memory: { keys(): Iterable<string> };
  private readonly file: StoreFile;
  private readonly guard: StoreGuard;
  /** Accesses not yet written to disk: a Map.set per read, one transaction per batch. */
  private readonly accessed = new Map<string, number>();
  /**
   * Encodings made on readers' requests: a write (and the file's lock, shared with the other
   * processes) per request made a freshly pre-rendered site, read at random, answer 500 pages a
   * second instead of thousands.
   */
  private pendingEncodings: AddedEncoding[] = [];

  /** `memory`: the pages it holds were read there, so they are never the least recently used. */
  constructor(file: StoreFile, guard: StoreGuard, used: number, limit: number, memory: { keys(): Iterable<string> }) {
    this.memory = memory;
    this.file = file;
    this.guard = guard;
    this.used = used;
    this.limit = limit;
  }

  /** Whether the file has room to grow: below nine tenths of its budget. */
  get hasRoom(): boolean {
    return this.used < this.limit * 0.9;
  }

  /** Pages just written (their sizes, and those of the versions they replaced); past the budget the oldest others go. */
  written(pages: Array<{ key: string; size: number }>, replaced: number[]): void {
    let grown = 0;
    pages.forEach(({ key, size }, i) => {
      grown += size - replaced[i]!;
      this.accessed.delete(key);
    });
    this.grew(grown);
    if (this.used > this.limit) this.evict(new Set(pages.map(({ key }) => key)));
  }

  /**
   * Counts bytes this process added. Other serving processes write the same file, so the sum of
   * its own writes is not the file's size: the size is read again from the file (a scan of the
   * small size index) after every write once near the budget, and after every fortieth of the
   * budget written here. Each of up to 7 processes then sees the budget passed before it is.
   */
  private grew(bytes: number): void {
    this.used += bytes;
    this.sinceCount += bytes;
    if (this.used <= this.limit * 0.85 && this.sinceCount < this.limit / 40) return;
    this.sinceCount = 0;
    this.used = this.guard.run('read', () => this.file.countBytes()) ?? this.used;
  }

  /** A page was read now (from the file, or leaving memory, where reads are not noted one by one). */
  touch(key: string): void {
    if (this.used < this.limit * NOTE_READS_FROM) return;
    this.accessed.set(key, Date.now());
    if (this.accessed.size >= ACCESS_BATCH) this.writeAccesses();
  }

  /** An encoding to write with the others made meanwhile. */
  addEncoding(entry: AddedEncoding): void {
    this.pendingEncodings.push(entry);
    if (this.pendingEncodings.length >= ENCODING_BATCH) this.writeEncodings();
    else if (this.pendingEncodings.length === 1) setImmediate(() => this.writeEncodings());
  }

  /** Writes what is pending (at close). */
  flush(): void {
    this.writeEncodings();
    this.writeAccesses();
  }

  /**
   * Frees a tenth of the budget past the limit, least recently used first, in one transaction.
   * Every page held in memory counts as read now (reads from memory note nothing one by one), in
   * the order memory last used them: within this millisecond, so that when the budget must drop
   * some of them the least used go first, not the first by name.
   */
  private evict(keep: ReadonlySet<string>): void {
    const now = Date.now();
    const held = [...this.memory.keys()];
    held.forEach((key, i) => this.accessed.set(key, now + i / held.length));
    this.writeAccesses();
    const excess = this.used - this.limit * 0.9;
    const result = this.guard.run('write', () => this.file.evictOldest(excess, keep));
    if (result) this.used -= result.freed;
  }

  private writeAccesses(): void {
    if (this.accessed.size === 0) return;
    const entries = [...this.accessed];
    this.accessed.clear();
    this.guard.run('write', () => this.file.touchPages(entries));
  }

  private writeEncodings(): void {
    if (this.pendingEncodings.length === 0) return;
    const entries = this.pendingEncodings;
    this.pendingEncodings = [];
    const added = this.guard.run('write', () => this.file.addEncodings(entries));
    if (added) this.grew(added);
    // Encodings grow the file too (all of a site's brotli copies after a pre-render).
    if (this.used > this.limit) this.evict(new Set());
  }
}
