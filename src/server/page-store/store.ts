import { keptInFile, type StoreFile, type StoredPage, type TagBump, type TagLabel, type WholePage } from './store-file.ts';
import { StoreDisk } from './store-disk.ts';
import type { PageStoreOptions, StoreStats } from './store-options.ts';
import { openGuardedStoreFile } from './store-open.ts';
import { RequestCounts } from './refresh-queue.ts';
import type { StoreGuard } from './store-guard.ts';
import { TagVersions, VERSION_CHECK_MS } from './tag-versions.ts';
import { PageMemory, sizeOf } from './page-memory.ts';
import { storedPageOf, type PageInput, type PutEntry } from './stored-page.ts';
import type { PageCopy, PageEncoding } from './compress-page.ts';
import { PageCopies } from './page-copies.ts';
import { isHtmlType } from './narrow-policy.ts';
import type { StoredEncodings } from './store-reads.ts';
import type { PagePatch } from './render-protocol.ts';

export type { StoredPage, WholePage } from './store-file.ts';
export type { PageCopy } from './compress-page.ts';
export type { PageInput, PutEntry } from './stored-page.ts';
export type { PageStoreOptions, StoreStats } from './store-options.ts';
export { VERSION_CHECK_MS } from './tag-versions.ts';

/** Which stale tags a worker may mend in a stored page instead of rendering it (`PageStore.patchFor`). */
export interface PatchRules {
  /** The header and footer's data (the nav). */
  chromeTag: string;
  /** Those whose versions the header and footer show: fragments are kept for one set of them. */
  chromeTags: readonly string[];
  /** Stale tags whose label at the page's version names what to write in (a category's old name). */
  labelled: (tag: string) => boolean;
  /** Tags of data only the blocks every page carrying them shows alike show (the top-viewed list, the ticker). */
  blockTag?: (tag: string) => boolean;
}

/** How long a stale page held in memory is answered before the file is read again for a fresher copy. */
export const STALE_RECHECK_MS = 1000;
/**
 * For this long after a tag changed, a stale page held in memory is looked for in the file again
 * whenever anything was committed to it: the change's hot pages are being stored. A change whose
 * hot pages took longer announces them (`announceStored`).
 */
export const HOT_PAGES_WINDOW_MS = 5000;
/** The tag `announceStored` bumps: no page carries it. */
const HOT_PAGES_STORED = 'hot-pages-stored';

/** A look in the file for a fresher copy of a stale page held in memory, and what this process knew then. */
interface FileCheck {
  sequence: number;
  at: number;
  fileVersion: number | undefined;
}

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
export class PageStore {
  readonly buildId: string;
  private readonly versionCheckMs: number;
  private readonly file: StoreFile;
  private readonly guard: StoreGuard;
  private readonly versions: TagVersions;
  private readonly memory: PageMemory;
  private readonly disk: StoreDisk;
  private readonly copies: PageCopies;
  /**
   * Stale pages held in memory whose row in the file was read for a fresher copy, with the
   * version sequence and the moment of that read (`fresherInFile`).
   */
  private readonly checkedInFile = new WeakMap<StoredPage, FileCheck>();
  /** Readers' requests per page, counted cheaply in memory: the background refresh goes by them. */
  readonly requests = new RequestCounts();

  constructor(options: PageStoreOptions) {
    this.buildId = options.buildId;
    this.versionCheckMs = options.versionCheckMs ?? VERSION_CHECK_MS;
    // A page leaving memory was read until then: its access is noted for the file.
    this.memory = new PageMemory(options.memoryBytes ?? 48 * 1024 * 1024, (key) => this.disk.touch(key));
    // Whatever a damaged file held can no longer be trusted, the copies in memory included (their versions came from it).
    const opened = openGuardedStoreFile(options, () => this.memory.clear());
    this.guard = opened.guard;
    this.file = opened.file;
    this.disk = new StoreDisk(this.file, this.guard, opened.bytes, options.maxBytes ?? 2 ** 30, this.memory);
    this.copies = new PageCopies(this.file, this.guard, this.memory, this.disk);
    this.versions = new TagVersions(this.file, this.guard, () => this.forgetAll());
  }

  /** The number of pages stored on disk. */
  count(): number {
    return this.guard.run('read', () => this.file.countPages()) ?? 0;
  }

  /**
   * Whether this build's pre-render has yet to run to its end on this file: an empty store, or one
   * whose last pre-render was stopped midway (the server stopped, a crash), which the next start
   * carries on, skipping the pages already fresh.
   */
  needsPrerender(): boolean {
    return this.count() === 0 || this.guard.run('read', () => this.file.prerenderedBuild()) !== this.buildId;
  }

  /** Notes that this build's pre-render ran to its end. */
  markPrerendered(): void {
    this.guard.run('write', () => this.file.markPrerendered(this.buildId));
  }

  /** Whether the file has room for more pages (below nine tenths of its disk budget). */
  hasRoom(): boolean {
    return this.disk.hasRoom;
  }

  stats(): StoreStats {
    return { pages: this.count(), diskBytes: this.disk.used, memoryPages: this.memory.size, memoryBytes: this.memory.bytes };
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
    const { names, versions } = page.tags;
    for (let i = 0; i < names.length; i++) if (this.versions.get(names[i]!) !== versions[i]) return false;
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

  /** Whether a fresh page is stored under `key`, in memory or in the file, read without its bodies. */
  hasFresh(key: string): boolean {
    return this.storedState(key) === 'fresh';
  }

  /** Whether a page is stored under `key` but stale (none fresh in memory or in the file), read without its bodies. */
  isStale(key: string): boolean {
    return this.storedState(key) === 'stale';
  }

  /** Fresh in memory or in the file, else stale in either, else not stored; read without its bodies. */
  private storedState(key: string): 'fresh' | 'stale' | undefined {
    this.versions.sync();
    const hot = this.memory.peek(key);
    if (hot && this.isFresh(hot)) return 'fresh';
    const row = this.guard.run('read', () => this.file.readPageTags(key));
    if (row) return this.isFresh(row) ? 'fresh' : 'stale';
    return hot ? 'stale' : undefined;
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
    return page && !order ? this.copies.whole(page) : page;
  }

  private lookUp(key: string, order: readonly PageCopy[] | undefined): StoredPage | undefined {
    if (this.guard.broken) return undefined;
    this.versions.syncWithin(this.versionCheckMs);
    // A read from memory notes nothing (a Map.set per request, and a write per 10,000 pages, was
    // a twentieth of a stored page's cost): pages held in memory are noted as read when they leave
    // it, and all of them before an eviction.
    const hot = this.memory.get(key);
    if (hot) return this.isFresh(hot) ? hot : (this.fresherInFile(hot, order) ?? hot);
    const page = this.copies.read(key, order);
    if (!page) return undefined;
    this.disk.touch(key);
    this.memory.remember(page);
    // Read stale from the file just now: nothing fresher there to look for at its next request.
    if (!this.isFresh(page)) this.checkedInFile.set(page, this.fileCheck());
    return page;
  }

  private fileCheck(): FileCheck {
    return { sequence: this.versions.current(), at: performance.now(), fileVersion: this.versions.fileVersion() };
  }

  /** Whether the file cannot hold a fresher copy of a stale page than it did at `checked`. */
  private stillChecked(checked: FileCheck, hot: StoredPage): boolean {
    if (checked.sequence !== this.versions.current() || performance.now() - checked.at >= STALE_RECHECK_MS) return false;
    // A change's hot pages are stored after its tags changed: until they surely are, any commit
    // to the file may be one of them.
    if (checked.at - this.versions.lastChangeAt() < HOT_PAGES_WINDOW_MS && checked.fileVersion !== this.versions.fileVersion())
      return false;
    return !this.showsTakenDown(hot);
  }

  /**
   * The fresh copy another process stored of a page held here stale. After a rename every page is
   * stale until the background refresh reaches it, and a read of the file per request of each was
   * an eighth of the serving thread's time: the file is read for a page at most once in
   * STALE_RECHECK_MS while no tag changed, so a page another process refreshed meanwhile is
   * answered stale a little longer. A change's hot pages are not (`stillChecked`), and a page
   * showing taken-down content is looked for at every request.
   */
  private fresherInFile(hot: StoredPage, order: readonly PageCopy[] | undefined): StoredPage | undefined {
    const checked = this.checkedInFile.get(hot);
    if (checked && this.stillChecked(checked, hot)) return undefined;
    const check = this.fileCheck();
    const fresher = this.copies.freshFromFile(hot.key, order, (row) => this.isFresh(row));
    if (!fresher) this.checkedInFile.set(hot, check);
    return fresher;
  }

  /** `key`'s stored version in one copy, when the file has it fresh without `encoding` and room to grow
   * (copies nobody asked for never push out pages readers did); not kept in memory. */
  versionLacking(key: string, encoding: PageEncoding): StoredPage | undefined {
    if (this.guard.broken || !this.disk.hasRoom) return undefined;
    return this.copies.lacking(key, encoding, (page) => this.isFresh(page));
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
    const toWrite = pages
      .filter((page): page is WholePage => page !== null)
      .map((page) => ({ page, size: sizeOf(keptInFile(page)) }));
    if (toWrite.length === 0) return pages;
    const replaced = this.guard.run('write', () => this.file.writePages(toWrite));
    if (replaced)
      this.disk.written(
        toWrite.map(({ page, size }) => ({ key: page.key, size })),
        replaced,
      );
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
   * waiting for them. A page nobody asked for stays as rendered. With the version they are of
   * (`renderedAt`); null when no page is stored under `key`.
   */
  encodingsOf(key: string): StoredEncodings | null {
    return this.copies.encodingsOf(key);
  }

  /**
   * Keeps an encoding made after the page was stored (a reader asked for it): with the page in
   * memory at once, in the file with the others made meanwhile. Never onto a newer version.
   */
  keepEncoding(page: StoredPage, encoding: PageEncoding, bytes: Buffer): void {
    this.copies.keep(page, encoding, bytes);
  }

  /** The page's bytes in this copy: held, or this version's from the file (kept with it); null when the file has none. */
  copyOf(page: StoredPage, copy: PageCopy): Buffer | null {
    return this.copies.copyOf(page, copy);
  }

  /**
   * Marks every page carrying one of these tags stale: O(number of tags). Never throws.
   * `takenDown`: tags of content this change took down (also bumped): from now on no process
   * answers a page carrying one of them from before this change, not even stale. Returns the
   * bumps the file could not take (the other processes must be told them), or null. `labels`:
   * what the pages carrying some of these tags show for them until now (`labelOf`).
   */
  invalidate(tags: string[], takenDown: string[] = [], labels: readonly TagLabel[] = []): TagBump[] | null {
    return this.versions.bump([...tags, ...takenDown], new Set(takenDown), labels);
  }

  /** A sibling process's `invalidate` that its file write could not carry (see TagVersions.applyFromSibling). */
  invalidateFromSibling(bumps: readonly TagBump[]): void {
    this.versions.applyFromSibling(bumps);
  }

  /**
   * Resolves once every process on this file judges its pages by this process's last
   * `invalidate`: from then on no reader anywhere gets a page that change made stale as fresh, nor
   * a page it took down. A change answers after this.
   */
  async seenEverywhere(): Promise<void> {
    await waitUntil(this.versions.seenEverywhereAt(this.versionCheckMs));
  }

  /**
   * Makes a change's hot pages, now in the file (stored by this process or another), what every
   * process answers: one that found no fresher copy of one of them before it was stored looks
   * again. Within HOT_PAGES_WINDOW_MS of the change, any commit to the file sends it looking, and
   * this waits until every process has looked at the file since now. Later, a bump of a tag no
   * page carries tells them (a write, with the file's lock to wait for, which the quick changes
   * do without); that bump is returned, as `invalidate` returns its own, when the file could not
   * take it.
   */
  async announceStored(changedAt: number): Promise<TagBump[] | null> {
    // A second of margin: another process learnt of the change a little after it was made.
    if (performance.now() - changedAt >= HOT_PAGES_WINDOW_MS - 1000) {
      const untold = this.versions.bump([HOT_PAGES_STORED]);
      if (untold) return untold;
      await this.seenEverywhere();
      return null;
    }
    await waitUntil(performance.now() + this.versionCheckMs);
    return null;
  }

  /**
   * The stored page under `key`, in one copy (brotli when it has it), when only changes a worker
   * can patch left it stale: `chromeTag` (the nav: a category renamed; its header and footer are
   * patched, chrome-patch.ts), with no other stale tag but those `labelled` whose label at the
   * page's version is known, every change since having been labelled too (the category's old
   * name, `invalidate`'s labels: renames, never a delete; written in, category-name-patch.ts),
   * and `blockTag` (the top-viewed list and the ticker; patched, block-patch.ts). Null for a page any other
   * change left stale, or fresh, or not HTML.
   */
  patchFor(key: string, rules: PatchRules): PagePatch | null {
    if (this.guard.broken) return null;
    this.versions.sync();
    // The tags first, without the bodies: most background jobs (an article's edit) are not patches.
    const row = this.guard.run('read', () => this.file.readPageTags(key));
    if (!row || row.buildId !== this.buildId) return null;
    let chromeStale = false;
    let blockStale = false;
    const labels: TagLabel[] = [];
    const { names, versions } = row.tags;
    for (let i = 0; i < names.length; i++) {
      const name = names[i]!;
      const current = this.versions.get(name);
      if (current === versions[i]) continue;
      if (name === rules.chromeTag) chromeStale = true;
      else if (rules.blockTag?.(name)) blockStale = true;
      else if (!rules.labelled(name)) return null;
      else {
        const label = this.guard.run('read', () => this.file.labelOf(name, versions[i]!, current));
        if (label == null) return null;
        labels.push([name, label]);
      }
    }
    if (!chromeStale && !blockStale) return null;
    // A name to write in needs the header and footer's patch too (a rename changes the nav).
    if (!chromeStale && labels.length > 0) return null;
    // Another process may store it again meanwhile: that copy is as new or newer, and patching
    // it with the current header and footer changes nothing (and finds no old label: rendered).
    const page = this.copies.read(key, ['br', 'identity']);
    const copy = page?.br ?? page?.body;
    if (!page || !copy || !isHtmlType(page.contentType)) return null;
    return {
      copy,
      encoding: page.br ? 'br' : 'identity',
      contentType: page.contentType,
      policy: page.policy ?? null,
      tags: [...page.tags.names],
      chrome: chromeStale ? rules.chromeTags.map((name) => `${name}@${this.versions.get(name)}`).join(' ') : null,
      block: blockStale ? String(this.versions.current()) : null,
      labels,
    };
  }

  /** Drops a page that no longer exists (its render answered 404). */
  remove(key: string): void {
    this.memory.forget(key);
    const freed = this.guard.run('write', () => this.file.removePage(key));
    if (freed) this.disk.used -= freed;
  }

  /** The stored pages carrying one of these tags (what a change left stale). */
  keysCarrying(tags: string[]): string[] {
    return this.guard.run('read', () => this.file.keysWithTags(tags)) ?? [];
  }

  close(): void {
    this.disk.flush();
    this.file.close();
  }

  /** The stored pages were dropped by another process (it found a crash): the memory copies go too. */
  private forgetAll(): void {
    this.memory.clear();
    this.disk.used = this.guard.run('read', () => this.file.countBytes()) ?? this.disk.used;
  }
}

/** Resolves once performance.now() reached `at`, checked against the clock again: a timer may fire a little before its time. */
async function waitUntil(at: number): Promise<void> {
  for (let wait = at - performance.now(); wait > 0; wait = at - performance.now())
    await new Promise((resolve) => setTimeout(resolve, Math.ceil(wait)));
}
