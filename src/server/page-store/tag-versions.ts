import type { StoreFile, TagBump, TagChanges, TagLabel } from './store-file.ts';
import type { StoreGuard } from './store-guard.ts';
import type { PageTags } from './page-tags.ts';

/**
 * How old the tag versions a reader's page is judged by may be, by default: a look at the file
 * (`PRAGMA data_version`, 5-10 µs with its call) on every request was a tenth of a stored page's
 * cost; once in 2 ms it is nothing, and a change waits 2 ms more before it answers.
 */
export const VERSION_CHECK_MS = 2;

/**
 * The version of every tag, shared through the store's file by every process that has it open
 * (the serving processes of one server, and any other server started on the same files).
 *
 * Each process keeps the versions in memory and asks the file, before it judges a page, whether
 * anything was committed since it last looked (`PRAGMA data_version`, a few µs on the store's own
 * connection); only then does it read the bumps made since the last one it saw (an indexed range,
 * usually a handful of rows). A bump reads the others' bumps and writes its own in one write
 * transaction, so no bump is missed between the two.
 *
 * Versions only ever go up, in memory first: when the file cannot take a bump (a full disk), this
 * process still judges freshness right and `trusted` turns false (see PageStore.isTrusted).
 *
 * A bump may be a take-down (an article unpublished, a comment hidden): the tag then also records
 * the version it took, and a page that recorded an older one may not be answered stale by any
 * process (`mayAnswerStale`). The mark travels with the bump, in the same row and transaction, so
 * a process that sees the bump sees the take-down.
 */
export class TagVersions {
  private readonly versions = new Map<string, number>();
  /** Sequence number of each tag's last invalidation, to catch renders that raced a change. */
  private readonly invalidatedAt = new Map<string, number>();
  /** The version each tag took at its last take-down: pages with an older one are never answered stale. */
  private readonly takenDown = new Map<string, number>();
  /** Sequence number of each tag's last take-down, to catch renders that raced one. */
  private readonly takenDownAt = new Map<string, number>();
  private sequence = 0;
  /** When (performance.now()) a tag last changed, here or in another process as this one learnt it. */
  private changedAt = -Infinity;
  /** The file's sequence number of the last bump read from it. */
  private seenSeq = 0;
  private dataVersion: number | undefined;
  /** When (performance.now()) the last look at the file began: `syncWithin` skips the look until it is older. */
  private lookedAt = -Infinity;
  /** When (performance.now()) this process's last bump was in the file. */
  private bumpedAt = -Infinity;
  private generation: number | undefined;
  trusted = true;
  private readonly file: StoreFile;
  private readonly guard: StoreGuard;
  /** Called when another process dropped the stored pages (it found a crash): forget the memory copies. */
  private readonly onNewGeneration: () => void;

  constructor(file: StoreFile, guard: StoreGuard, onNewGeneration: () => void) {
    this.file = file;
    this.guard = guard;
    this.onNewGeneration = onNewGeneration;
    this.sync();
  }

  get(tag: string): number {
    return this.versions.get(tag) ?? 0;
  }

  /** The current sequence: pass it back to `changedSince` to learn whether a tag changed meanwhile. */
  current(): number {
    return this.sequence;
  }

  /** When a tag last changed (performance.now(); -Infinity: none since this process started). */
  lastChangeAt(): number {
    return this.changedAt;
  }

  /** The file's `data_version` at the last look: it moves when another process commits anything. */
  fileVersion(): number | undefined {
    return this.dataVersion;
  }

  /** Whether one of these tags was invalidated (here or by another process) at or after `sequence`. */
  changedSince(tags: string[], sequence: number): boolean {
    for (const tag of tags) if ((this.invalidatedAt.get(tag) ?? -1) >= sequence) return true;
    return false;
  }

  /** Whether content showing one of these tags was taken down (here or by another process) at or after `sequence`. */
  takenDownSince(tags: string[], sequence: number): boolean {
    for (const tag of tags) if ((this.takenDownAt.get(tag) ?? -1) >= sequence) return true;
    return false;
  }

  /** False when a page recorded, for one of its tags, a version older than that tag's last take-down. */
  mayAnswerStale({ names, versions }: PageTags): boolean {
    if (this.takenDown.size === 0) return true;
    for (let i = 0; i < names.length; i++) if ((this.takenDown.get(names[i]!) ?? 0) > versions[i]!) return false;
    return true;
  }

  /** Reads the bumps other processes committed, when the file says something was committed. */
  sync(): void {
    // Taken before the look: a bump committed after this moment may not be seen by it.
    const at = performance.now();
    const dataVersion = this.guard.run('read', () => this.file.dataVersion());
    if (dataVersion === undefined) return;
    this.lookedAt = at;
    if (dataVersion === this.dataVersion) return;
    this.dataVersion = dataVersion ?? undefined;
    const changes = this.guard.run('read', () => this.file.readTagChanges(this.seenSeq));
    if (changes) this.apply(changes);
  }

  /**
   * `sync`, unless the last look at the file began less than `ms` ago. A reader's page is judged
   * this way: a look per request was a tenth of a stored page's cost. What makes it safe is
   * `seenEverywhereAt`: a change answers only once every process has looked again since its bump.
   */
  syncWithin(ms: number): void {
    if (performance.now() - this.lookedAt >= ms) this.sync();
  }

  /**
   * When every process that judges pages with `syncWithin(ms)` has looked at the file since this
   * process's last bump: each of them looks again before any page it judges once `ms` have passed
   * since its last look, and a look that began after the bump was committed sees it.
   */
  seenEverywhereAt(ms: number): number {
    return this.bumpedAt + ms;
  }

  /**
   * Bumps these tags: in memory at once, then in the file with every process's bumps read first.
   * `takeDown`: those of them whose content was taken down; `labels`: what the pages carrying some
   * of them show until this bump (recorded in the same transaction). Returns the bumps when the
   * file could not take them (a full disk): no other process can learn of them there, so the
   * caller tells them (`applyFromSibling`) before the change answers, and this process's own
   * copies of pages carrying them are not answered stale either. Null when they are in the file.
   */
  bump(tags: string[], takeDown: ReadonlySet<string> = new Set(), labels: readonly TagLabel[] = []): TagBump[] | null {
    this.sequence++;
    const bumps: TagBump[] = [];
    for (const tag of new Set(tags)) bumps.push([tag, this.raise(tag, this.get(tag) + 1, takeDown.has(tag)), takeDown.has(tag)]);
    const changes = this.guard.run('write', () => this.file.bumpTags(bumps, this.seenSeq, labels));
    this.bumpedAt = performance.now();
    if (changes) this.apply(changes);
    else {
      this.trusted = false;
      // Nor will the file take the pages other processes render for this change (a change's hot
      // pages are often rendered by a sibling): a stale copy here would go on showing the old text,
      // so each counts as a take-down here too, as in `applyFromSibling`.
      for (const [tag, version] of bumps) this.markTakenDown(tag, version);
    }
    this.sequence++;
    this.changedAt = performance.now();
    return changes ? null : bumps;
  }

  /**
   * Another process's bumps that never reached the file. Each tag takes a version above both its
   * own and the sender's, so no page this process stored before it matches. Each counts as a
   * take-down here, an edit too: the fresh pages the sender rendered never reached the file either,
   * so a stale copy here would go on showing the old text; a reader here waits for a render. This
   * process's file lags its memory from now on, as the sender's does.
   */
  applyFromSibling(bumps: readonly TagBump[]): void {
    this.sequence++;
    for (const [tag, atLeast] of bumps) this.raise(tag, Math.max(this.get(tag) + 1, atLeast), true);
    this.trusted = false;
    this.sequence++;
    this.changedAt = performance.now();
  }

  /** Sets a tag's version for a change made now (this sequence step), marking a take-down; gives the version. */
  private raise(tag: string, version: number, takeDown: boolean): number {
    this.versions.set(tag, version);
    this.invalidatedAt.set(tag, this.sequence);
    if (takeDown) this.markTakenDown(tag, version);
    return version;
  }

  private apply(changes: TagChanges): void {
    if (changes.rows.length > 0) {
      // One sequence step for all of them: a render that began before this read is not stored.
      this.sequence++;
      for (const row of changes.rows) {
        if (row.version > this.get(row.tag)) {
          this.versions.set(row.tag, row.version);
          this.invalidatedAt.set(row.tag, this.sequence);
        }
        if (row.takenDown > (this.takenDown.get(row.tag) ?? 0)) this.markTakenDown(row.tag, row.takenDown);
      }
      this.sequence++;
      this.changedAt = performance.now();
    }
    this.seenSeq = Math.max(this.seenSeq, changes.lastSeq);
    if (this.generation !== undefined && changes.generation !== this.generation) this.onNewGeneration();
    this.generation = changes.generation;
  }

  private markTakenDown(tag: string, version: number): void {
    this.takenDown.set(tag, version);
    this.takenDownAt.set(tag, this.sequence);
  }
}
