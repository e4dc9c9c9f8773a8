import path from 'node:path';
import type { AddedEncoding, StoreFile, StoredPage, WholePage } from './store-file.ts';
import { openDetachedStoreFile, openPageStoreFile } from './store-open.ts';
import { markStoreDamaged } from './store-damage.ts';
import { RequestCounts } from './refresh-queue.ts';
import { StoreGuard } from './store-guard.ts';
import { TagVersions } from './tag-versions.ts';
import { PageMemory, sizeOf } from './page-memory.ts';
import { storedPageOf, type PageInput, type PutEntry } from './stored-page.ts';
import { PAGE_ENCODINGS, type PageCopy, type PageEncoding } from './compress-page.ts';
import { fieldOf } from './store-reads.ts';

export type { StoredPage, WholePage } from './store-file.ts';
export type { PageCopy } from './compress-page.ts';
export type { PageInput, PutEntry } from './stored-page.ts';

/**
 * The page store: rendered pages, kept in a SQLite file of their own
 * (a page is written in one transaction, so a kill -9 mid-write leaves the old page or the new one,
 * never half of either) with the hot ones in memory, bounded on disk by least-recent use.
 *
 * Freshness is versioned per tag: a page records the version of every tag it carries when it was
 * rendered; invalidating a tag bumps its version, so the cost of a change is O(number of tags it
 * touched), whatever the number of stored pages. A page is fresh when all its tags still have the
 * versions it recorded and it was rendered by the running build.
 *
 * The versions live in the file and are shared by every process that opens it (tag-versions.ts):
 * a bump made by one serving process, or by another server on the same files, is seen by the
 * others at their next request. The pages too: a process that holds a page in memory that went
 * stale takes the fresh copy another process rendered from the file.
 *
 * The store is a cache: no failure of its file (full disk, I/O error) is thrown to a caller.
 * Versions are bumped in memory first, so this process judges freshness right even when the file
 * could not take the bump; the store is then "untrusted" (the file's versions are behind) and the
 * server leaves its crash marker on close, so the next start drops the stored pages.
 */
export interface PageStoreOptions {
  dir: string;
  buildId: string;
  /** Memory budget for hot pages, every encoding made so far counted. */
  memoryBytes?: number;
  /** Disk budget: past it the least recently used pages are dropped. */
  maxBytes?: number;
  /** Where a damaged store file or a failing write is reported. */
  log?: (line: string) => void;
  /** Test seam: every write to the file fails as on a full disk. */
  failWrites?: boolean;
  /**
   * A reader's page is judged by tag versions read from the file at most this long ago (ms; 0:
   * at every read). A change answers only once every process has looked again (`seenEverywhere`).
   */
  versionCheckMs?: number;
  /** Check the file at open (a start): a damaged one is set aside, or the store serves without it. */
  check?: boolean;
  /**
   * A damaged file may be renamed aside (default). False while other processes have it open: the
   * store then serves without it and marks it for the next start.
   */
  setAside?: boolean;
}

export interface StoreStats {
  pages: number;
  diskBytes: number;
  memoryPages: number;
  memoryBytes: number;
}

const PAGE_COPIES: readonly PageCopy[] = ['identity', ...PAGE_ENCODINGS];

/** Encodings made on request are written to the file this many to a transaction at most. */
const ENCODING_BATCH = 64;

/**
 * How old the tag versions a reader's page is judged by may be, by default: a look at the file
 * (`PRAGMA data_version`, 5-10 µs with its call) on every request was a tenth of a stored page's
 * cost; once in 2 ms it is nothing, and a change waits 2 ms more before it answers.
 */
export const VERSION_CHECK_MS = 2;

/** Accesses are kept in memory and written in one batch before an eviction, or when this many piled up. */
const ACCESS_BATCH = 10_000;

export class PageStore {
  readonly buildId: string;
  private readonly versionCheckMs: number;
  private readonly file: StoreFile;
  private readonly guard: StoreGuard;
  private readonly versions: TagVersions;
  private readonly memory: PageMemory;
  private readonly diskLimit: number;
  private diskUsed: number;
  /** Accesses not yet written to disk: a Map.set per read, one transaction per batch. */
  private readonly accessed = new Map<string, number>();
  /** Pages read from the file in one copy only (`get` with an order): `whole` takes the others when asked. */
  private readonly partial = new WeakSet<StoredPage>();
  /** Readers' requests per page, counted cheaply in memory: the background refresh goes by them. */
  readonly requests = new RequestCounts();
  /**
   * Encodings made on readers' requests, written to the file together at the next turn of the
   * event loop: a write (and the file's lock, shared with the other processes) per request made
   * a freshly pre-rendered site, read at random, answer 500 pages a second instead of thousands.
   */
  private pendingEncodings: AddedEncoding[] = [];

  constructor(options: PageStoreOptions) {
    this.buildId = options.buildId;
    this.versionCheckMs = options.versionCheckMs ?? VERSION_CHECK_MS;
    // A page leaving memory was read until then: its access is noted for the file.
    this.memory = new PageMemory(options.memoryBytes ?? 48 * 1024 * 1024, (key) => this.touch(key));
    this.diskLimit = options.maxBytes ?? 1024 * 1024 * 1024;
    const file = path.join(options.dir, 'pages.sqlite');
    const log = options.log ?? console.error;
    this.guard = new StoreGuard(file, log, options.failWrites ?? false, (reason) => {
      // Whatever it holds can no longer be trusted, the copies in memory included (their versions came from it).
      this.memory.clear();
      markStoreDamaged(options.dir, reason);
      log(`Page store: ${file} is damaged (${reason}); pages are rendered without it until the next start sets it aside.`);
    });
    const opened = openPageStoreFile(options.dir, {
      log,
      check: options.check ?? false,
      setAside: options.setAside ?? true,
      buildId: this.buildId,
    });
    if ('damaged' in opened) {
      // Never read: the guard lets nothing through, and pages are rendered for every reader.
      this.file = openDetachedStoreFile();
      this.guard.markBroken();
      this.diskUsed = 0;
    } else {
      this.file = opened.file;
      this.diskUsed = opened.bytes;
    }
    this.versions = new TagVersions(this.file, this.guard, () => this.forgetAll());
  }

  /** The number of pages stored on disk. */
  count(): number {
    return this.guard.run('read', () => this.file.countPages()) ?? 0;
  }

  stats(): StoreStats {
    return { pages: this.count(), diskBytes: this.diskUsed, memoryPages: this.memory.size, memoryBytes: this.memory.bytes };
  }

  /** False once a version bump could not be written: the file's versions are behind this process's. */
  isTrusted(): boolean {
    return this.versions.trusted;
  }

  /** Starts a render: remember this and pass it to put(), so a change during the render is not lost. */
  beginRender(): number {
    this.versions.sync();
    return this.versions.current();
  }

  /** Reads the tag versions other processes bumped, if the file changed since the last look. */
  syncVersions(): void {
    this.versions.sync();
  }

  isFresh(page: Pick<StoredPage, 'buildId' | 'tags'>): boolean {
    if (page.buildId !== this.buildId) return false;
    for (const tag in page.tags) {
      if (this.versions.get(tag) !== page.tags[tag]) return false;
    }
    return true;
  }

  /**
   * Whether content this page shows was taken down after it was rendered (an unpublished article,
   * a hidden comment; an edit is not a take-down): such a page is never answered, not even stale.
   * O(its tags), asked only of stale pages.
   */
  showsTakenDown(page: Pick<StoredPage, 'tags'>): boolean {
    return !this.versions.mayAnswerStale(page.tags);
  }

  /** Whether content showing one of these tags was taken down since `renderStartedAt` (from beginRender). */
  takenDownSince(tags: string[], renderStartedAt: number): boolean {
    this.versions.sync();
    return this.versions.takenDownSince(tags, renderStartedAt);
  }

  /** Whether a page is stored under `key` but stale (none fresh in memory or in the file), read without its bodies. */
  isStale(key: string): boolean {
    this.versions.sync();
    const hot = this.memory.peek(key);
    if (hot && this.isFresh(hot)) return false;
    const row = this.guard.run('read', () => this.file.readPageTags(key));
    if (row) return !this.isFresh(row);
    return hot !== undefined;
  }

  /**
   * A stored page, fresh or stale, from memory or disk: the file's copy when the one in memory went
   * stale. Judged by versions read from the file at most `versionCheckMs` ago: another process's
   * change is seen here once its `seenEverywhere()` resolved. `order`: a reader's encodings, best
   * first (identity last); a page read from the file then holds only the first of them it has
   * (`copyOf` takes another), else every copy the file has.
   */
  get(key: string): WholePage | undefined;
  get(key: string, order: readonly PageCopy[]): StoredPage | undefined;
  get(key: string, order?: readonly PageCopy[]): StoredPage | undefined {
    const page = this.lookUp(key, order);
    return page && !order ? this.whole(page) : page;
  }

  /** The page with every copy the file has: a copy read for one reader's encoding takes the others. */
  private whole(page: StoredPage): WholePage | undefined {
    if (!this.partial.has(page)) return page as WholePage;
    for (const copy of PAGE_COPIES) if (!page[fieldOf(copy)]) this.copyOf(page, copy);
    if (!page.body) return undefined;
    this.partial.delete(page);
    return page as WholePage;
  }

  private lookUp(key: string, order: readonly PageCopy[] | undefined): StoredPage | undefined {
    if (this.guard.broken) return undefined;
    this.versions.syncWithin(this.versionCheckMs);
    // A read from memory notes nothing (a Map.set per request, and a write per 10,000 pages, was
    // a twentieth of a stored page's cost): pages held in memory are noted as read when they leave
    // it, and all of them before an eviction.
    const hot = this.memory.get(key);
    if (hot) return this.isFresh(hot) ? hot : (this.freshFromFile(key, order) ?? hot);
    const page = this.readFromFile(key, order);
    if (!page) return undefined;
    this.touch(key);
    this.memory.remember(page);
    return page;
  }

  /**
   * Stores a freshly rendered page. Returns null, storing nothing, when one of its tags was
   * invalidated after the render began: that render may show old data. When the file cannot take
   * it, the page is still returned (and kept in memory) so the reader gets it.
   */
  put(key: string, input: PageInput, renderStartedAt: number, options: { keepInMemory?: boolean } = {}): WholePage | null {
    return this.putMany([{ key, input, renderStartedAt }], options)[0]!;
  }

  /**
   * Stores several freshly rendered pages in one transaction of the file (the pre-render: a commit
   * per page was most of the serving thread's cost of a page). All of them or none are written,
   * each whole. The answer for each is what put() would answer.
   */
  putMany(entries: PutEntry[], options: { keepInMemory?: boolean } = {}): Array<WholePage | null> {
    this.versions.sync();
    const pages = entries.map(({ key, input, renderStartedAt }) =>
      this.versions.changedSince(input.tags, renderStartedAt)
        ? null
        : storedPageOf(key, input, this.buildId, (tag) => this.versions.get(tag)),
    );
    const toWrite = pages.filter((page): page is WholePage => page !== null).map((page) => ({ page, size: sizeOf(page) }));
    if (toWrite.length === 0) return pages;
    const replaced = this.guard.run('write', () => this.file.writePages(toWrite));
    if (replaced) {
      toWrite.forEach(({ page, size }, i) => {
        this.diskUsed += size - replaced[i]!;
        this.accessed.delete(page.key);
      });
      if (this.diskUsed > this.diskLimit) this.evict(new Set(toWrite.map(({ page }) => page.key)));
    }
    for (const { page } of toWrite) {
      // The pre-render and the background refresh pass false: memory is for the pages readers ask
      // for, and a refresh of every page after a rename would push them all out. A stale copy a
      // reader had brought in is replaced.
      if (this.guard.broken) break;
      if ((options.keepInMemory ?? true) || !replaced || this.memory.has(page.key)) this.memory.remember(page);
    }
    return pages;
  }

  /**
   * The encodings readers took of the page stored under `key` (made on their requests): a
   * background render makes them again with the page, in its worker, instead of the next reader
   * waiting for them. A page nobody asked for stays as rendered.
   */
  encodingsOf(key: string): PageEncoding[] {
    // A copy in memory may hold fewer than the file has, or one the file could not take.
    const hot = this.memory.peek(key);
    const inFile = this.guard.run('read', () => this.file.readEncodings(key)) ?? [];
    return PAGE_ENCODINGS.filter((encoding) => inFile.includes(encoding) || (hot && hot[encoding] !== null));
  }

  /**
   * Keeps an encoding made after the page was stored (a reader asked for it): with the page in
   * memory at once, in the file with the others made meanwhile. Never onto a newer version.
   */
  keepEncoding(page: StoredPage, encoding: PageEncoding, bytes: Buffer): void {
    if (page[encoding]) return;
    this.attachEncoding(page, encoding, bytes);
    this.pendingEncodings.push({ page, encoding, bytes });
    if (this.pendingEncodings.length >= ENCODING_BATCH) this.writeEncodings();
    else if (this.pendingEncodings.length === 1) setImmediate(() => this.writeEncodings());
  }

  /**
   * Takes a copy of this version of the page from the file when this copy of the page does not
   * hold it (read for a reader of another encoding, or made by another process since); false when
   * the file has none either (not made, or the page was stored again since).
   */
  takeEncodingFromFile(page: StoredPage, copy: PageCopy): boolean {
    return this.copyOf(page, copy) !== null;
  }

  /** The page's bytes in this copy: held, or taken from the file (kept with the page); null when the file has none. */
  copyOf(page: StoredPage, copy: PageCopy): Buffer | null {
    const held = page[fieldOf(copy)];
    if (held) return held;
    const bytes = this.guard.run('read', () => this.file.readCopy(page, copy)) ?? null;
    if (bytes) this.attachEncoding(page, copy, bytes);
    return bytes;
  }

  /** The copy goes with the page object, counted in memory when memory holds that page. */
  private attachEncoding(page: StoredPage, copy: PageCopy, bytes: Buffer): void {
    page[fieldOf(copy)] = bytes;
    this.memory.grown(page, bytes.length);
  }

  private writeEncodings(): void {
    if (this.pendingEncodings.length === 0) return;
    const entries = this.pendingEncodings;
    this.pendingEncodings = [];
    const added = this.guard.run('write', () => this.file.addEncodings(entries));
    if (added) this.diskUsed += added;
  }

  /**
   * Marks every page carrying one of these tags stale: O(number of tags). Never throws.
   * `takenDown`: tags of content this change took down (also bumped): from now on no process
   * answers a page carrying one of them from before this change, not even stale.
   */
  invalidate(tags: string[], takenDown: string[] = []): void {
    this.versions.bump([...tags, ...takenDown], new Set(takenDown));
  }

  /**
   * Resolves once every process on this file judges its pages by this process's last
   * `invalidate`: from then on no reader anywhere gets a page that change made stale as fresh, nor
   * a page it took down. A change answers after this.
   */
  async seenEverywhere(): Promise<void> {
    const at = this.versions.seenEverywhereAt(this.versionCheckMs);
    // Checked against the clock again: a timer may fire a little before its time.
    for (let wait = at - performance.now(); wait > 0; wait = at - performance.now())
      await new Promise((resolve) => setTimeout(resolve, Math.ceil(wait)));
  }

  /** Drops a page that no longer exists (its render answered 404). */
  remove(key: string): void {
    this.memory.forget(key);
    const freed = this.guard.run('write', () => this.file.removePage(key));
    if (freed) this.diskUsed -= freed;
  }

  /** The stored pages carrying one of these tags (what a change left stale). */
  keysCarrying(tags: string[]): string[] {
    return this.guard.run('read', () => this.file.keysWithTags(tags)) ?? [];
  }

  close(): void {
    this.writeEncodings();
    this.writeAccesses();
    this.file.close();
  }

  /** Frees a tenth of the budget past the limit, least recently used first, in one transaction. */
  private evict(keep: ReadonlySet<string>): void {
    const now = Date.now();
    for (const key of this.memory.keys()) this.accessed.set(key, now);
    this.writeAccesses();
    const excess = this.diskUsed - this.diskLimit * 0.9;
    const result = this.guard.run('write', () => this.file.evictOldest(excess, keep));
    if (result) this.diskUsed -= result.freed;
  }

  private touch(key: string): void {
    this.accessed.set(key, Date.now());
    if (this.accessed.size >= ACCESS_BATCH) this.writeAccesses();
  }

  private writeAccesses(): void {
    if (this.accessed.size === 0) return;
    const entries = [...this.accessed];
    this.accessed.clear();
    this.guard.run('write', () => this.file.touchPages(entries));
  }

  /** Another process rendered this page since the copy in memory: take the file's copy when it is fresh. */
  private freshFromFile(key: string, order: readonly PageCopy[] | undefined): StoredPage | undefined {
    const row = this.guard.run('read', () => this.file.readPageTags(key));
    if (!row || !this.isFresh(row)) return undefined;
    const page = this.readFromFile(key, order);
    if (!page) return undefined;
    this.touch(key);
    this.memory.remember(page);
    return page;
  }

  private readFromFile(key: string, order: readonly PageCopy[] | undefined): StoredPage | undefined {
    if (!order) return this.guard.run('read', () => this.file.readPage(key)) ?? undefined;
    const page = this.guard.run('read', () => this.file.readPageIn(key, order)) ?? undefined;
    if (page) this.partial.add(page);
    return page;
  }

  /** The stored pages were dropped by another process (it found a crash): the memory copies go too. */
  private forgetAll(): void {
    this.memory.clear();
    this.diskUsed = this.guard.run('read', () => this.file.countBytes()) ?? this.diskUsed;
  }
}
