import type SQLite from 'better-sqlite3';
import { createStoreSchema } from './store-schema.ts';
import type { PageEncoding } from './compress-page.ts';
import { checksumOf } from './page-etag.ts';
import { pageTagsText, readPageTagsText, sameTagNames } from './page-tags.ts';
import { prepareReads, type StoredPage, type WholePage } from './store-reads.ts';

export { dropStoredPages } from './store-schema.ts';

/**
 * The page store's SQLite file (`pages.sqlite` in the store directory): its schema and every
 * statement run on it (the reads in `store-reads.ts`). Kept apart from the site database: it is a
 * cache, and dropping it loses nothing.
 */
export type { StoredPage, WholePage } from './store-reads.ts';

export interface TagVersionRow {
  tag: string;
  version: number;
  seq: number;
  /** The version the tag had at its last take-down (0: never): pages older than it are never answered stale. */
  takenDown: number;
}

/** A tag to bump: to at least `atLeast`, and whether the change took down content showing it. */
export type TagBump = [tag: string, atLeast: number, takeDown: boolean];

/**
 * What the pages carrying a tag show for it until the bump this comes with (`[tag, label]`): a
 * category's name before its rename. Recorded under the tag's version before the bump.
 */
export type TagLabel = readonly [tag: string, label: string];

/** Tag versions bumped since a sequence number, and the store's generation (bumped when its pages are dropped). */
export interface TagChanges {
  rows: TagVersionRow[];
  lastSeq: number;
  generation: number;
}

export type StoreFile = ReturnType<typeof prepareStoreFile>;

/** The page as the file keeps it: without its body once it has its brotli copy (the body is made from that copy). */
export const keptInFile = (page: WholePage): StoredPage => (page.br ? { ...page, body: null } : page);

/** An encoding made after its page was stored, for the version of the page it was made from. */
export interface AddedEncoding {
  page: Pick<StoredPage, 'key' | 'etag' | 'buildId'>;
  encoding: PageEncoding;
  bytes: Buffer;
}

/** Prepares every statement on an opened store file (its schema brought up to date first). */
export function prepareStoreFile(db: SQLite.Database) {
  createStoreSchema(db);
  // One-off notes of the file (its build, the pre-render's end), read and written at start.
  const readMeta = (key: string): string | undefined =>
    (db.prepare('select value from meta where key = ?').get(key) as { value: string } | undefined)?.value;
  const writeMeta = (key: string, value: string): void => {
    db.prepare('insert into meta (key, value) values (?, ?) on conflict (key) do update set value = excluded.value').run(
      key,
      value,
    );
  };
  const statements = {
    sizeOf: db.prepare('select size from pages where key = ?'),
    previousOf: db.prepare('select size, tags from pages where key = ?'),
    put: db.prepare(
      `insert into pages (key, content_type, etag, tags, rendered_at, build_id, size, body, gzip, br, policy_id, gzip_sum, br_sum)
       values (@key, @contentType, @etag, @tags, @renderedAt, @buildId, @size, @body, @gzip, @br,
         (select id from policies where text = @policy), @gzipSum, @brSum)
       on conflict (key) do update set content_type = excluded.content_type, etag = excluded.etag,
         tags = excluded.tags, rendered_at = excluded.rendered_at, build_id = excluded.build_id,
         size = excluded.size, body = excluded.body, gzip = excluded.gzip,
         br = excluded.br, policy_id = excluded.policy_id, gzip_sum = excluded.gzip_sum, br_sum = excluded.br_sum`,
    ),
    addPolicy: db.prepare('insert or ignore into policies (text) values (?)'),
    untag: db.prepare('delete from page_tags where key = ?'),
    tag: db.prepare('insert or ignore into page_tags (tag, key) values (?, ?)'),
    keysOf: db.prepare('select key from page_tags where tag = ?'),
    remove: db.prepare('delete from pages where key = ?'),
    // Only onto the version it was made from, and only once (another process may have added it first).
    addGzip: db.prepare(
      'update pages set gzip = @bytes, gzip_sum = @sum, size = size + length(@bytes) where key = @key and etag = @etag and build_id = @buildId and gzip is null returning size',
    ),
    // The brotli copy replaces the body in the file: identity is made from it when a reader takes it.
    addBr: db.prepare(
      `update pages set br = @bytes, br_sum = @sum, body = null, size = size + length(@bytes) - coalesce(length(body), 0)
       where key = @key and etag = @etag and build_id = @buildId and br is null returning size`,
    ),
    // When each page was last read: in page_access, the time it was stored until a read is noted.
    accessedNow: db.prepare('insert or replace into page_access (key, accessed_at) values (?, ?)'),
    touch: db.prepare('update page_access set accessed_at = ? where key = ?'),
    forget: db.prepare('delete from page_access where key = ?'),
    // The LIMIT as an expression, not a bare parameter SQLite would prepare again each run (db/bound-limit.ts).
    oldest: db.prepare(
      'select a.key, p.size from page_access a join pages p on p.key = a.key order by a.accessed_at limit cast(? as integer)',
    ),
    // Never below what this process already handed out (kept in memory when a bump could not be written).
    bump: db.prepare(
      `insert into tag_versions (tag, version, seq, taken_down) values (@tag, @atLeast, @seq, @atLeast * @takeDown)
       on conflict (tag) do update set version = max(version + 1, excluded.version), seq = excluded.seq,
         taken_down = iif(@takeDown, max(version + 1, excluded.version), taken_down)
       returning version, taken_down as takenDown`,
    ),
    // The tag's version before its bump (0: never bumped), labelled once: another process's bump may have labelled it first.
    label: db.prepare(
      `insert into tag_labels (tag, version, label) values (@tag, coalesce((select version from tag_versions where tag = @tag), 0), @label)
       on conflict do nothing`,
    ),
    // Only when every bump from that version to the current one was labelled (renames only; a
    // category deleted between them, its id then reused, must not lend its label to the new one).
    labelOf: db
      .prepare(
        `select label from tag_labels where tag = @tag and version = @version
           and (select count(*) from tag_labels where tag = @tag and version >= @version and version < @current) = @current - @version`,
      )
      .pluck(),
    // Changes whenever another connection (another process) committed to the file; a few µs.
    dataVersion: db.prepare('pragma data_version').pluck(),
    changedSince: db.prepare('select tag, version, seq, taken_down as takenDown from tag_versions where seq > ? order by seq'),
    lastSeq: db.prepare('select coalesce(max(seq), 0) from tag_versions').pluck(),
    generation: db.prepare("select coalesce((select cast(value as integer) from meta where key = 'generation'), 0)").pluck(),
    count: db.prepare('select count(*) as n from pages'),
    bytes: db.prepare('select coalesce(sum(size), 0) as n from pages'),
  };
  const readChanges = (sinceSeq: number): TagChanges => {
    const rows = statements.changedSince.all(sinceSeq) as TagVersionRow[];
    return {
      rows,
      lastSeq: rows.length > 0 ? rows[rows.length - 1]!.seq : sinceSeq,
      generation: statements.generation.get() as number,
    };
  };
  /**
   * Bumps each tag's version in one write transaction (taken at its start, so no other process
   * commits between the read and the bump): first the bumps other processes made since
   * `sinceSeq`, then this one's, all reported.
   */
  const bumpTags = db.transaction((tags: TagBump[], sinceSeq: number, labels: readonly TagLabel[]): TagChanges => {
    const changes = readChanges(sinceSeq);
    const seq = (statements.lastSeq.get() as number) + 1;
    for (const [tag, label] of labels) statements.label.run({ tag, label });
    for (const [tag, atLeast, takeDown] of tags) {
      const bumped = statements.bump.get({ tag, atLeast, seq, takeDown: takeDown ? 1 : 0 }) as {
        version: number;
        takenDown: number;
      };
      changes.rows.push({ tag, ...bumped, seq });
    }
    return { ...changes, lastSeq: seq };
  });
  /**
   * Pages, their tag index rows and sizes, in one transaction: never half a page after a crash. A
   * page with its brotli copy is written without its body (`size`: what the row holds).
   */
  const writePages = db.transaction((pages: Array<{ page: WholePage; size: number }>): number[] =>
    pages.map(({ page, size }) => {
      const previous = statements.previousOf.get(page.key) as { size: number; tags: string } | undefined;
      if (page.policy) statements.addPolicy.run(page.policy);
      statements.put.run({
        ...keptInFile(page),
        tags: pageTagsText(page.tags),
        policy: page.policy ?? null,
        size,
        gzipSum: page.gzip && checksumOf(page.gzip),
        brSum: page.br && checksumOf(page.br),
      });
      statements.accessedNow.run(page.key, page.renderedAt);
      // A refresh mostly renders a page with the tags it had: rewriting its nine or so index rows
      // was three quarters of storing it (140 of 190 µs a page on a 10,000-article store).
      const previousTags = previous && readPageTagsText(previous.tags);
      if (!previousTags || !sameTagNames(previousTags.names, page.tags.names)) {
        statements.untag.run(page.key);
        for (const tag of page.tags.names) statements.tag.run(tag, page.key);
      }
      return previous?.size ?? 0;
    }),
  );
  /**
   * Encodings made after their pages were stored, each onto the version it was made from; returns
   * the bytes the file grew by (less than none when brotli copies replaced bodies).
   */
  const addEncodings = db.transaction((entries: AddedEncoding[]): number => {
    let added = 0;
    for (const { page, encoding, bytes } of entries) {
      const statement = encoding === 'br' ? statements.addBr : statements.addGzip;
      const row = { key: page.key, etag: page.etag, buildId: page.buildId, bytes, sum: checksumOf(bytes) };
      const before = (statements.sizeOf.get(page.key) as { size: number } | undefined)?.size;
      const after = (statement.get(row) as { size: number } | undefined)?.size;
      if (before !== undefined && after !== undefined) added += after - before;
    }
    return added;
  });
  const touchPages = db.transaction((entries: Array<[string, number]>) => {
    for (const [key, at] of entries) statements.touch.run(at, key);
  });
  const removePage = db.transaction((key: string): number => {
    const size = (statements.sizeOf.get(key) as { size: number } | undefined)?.size ?? 0;
    statements.remove.run(key);
    statements.untag.run(key);
    statements.forget.run(key);
    return size;
  });
  /** Drops the least recently used pages until `bytes` are freed; returns what was freed. */
  const evict = db.transaction((bytes: number, keep: ReadonlySet<string>): { freed: number; keys: string[] } => {
    let freed = 0;
    const keys: string[] = [];
    while (freed < bytes) {
      const batch = statements.oldest.all(64 + keep.size) as Array<{ key: string; size: number }>;
      const victims = batch.filter((row) => !keep.has(row.key));
      if (victims.length === 0) break;
      for (const row of victims) {
        if (freed >= bytes) break;
        statements.remove.run(row.key);
        statements.untag.run(row.key);
        statements.forget.run(row.key);
        freed += row.size;
        keys.push(row.key);
      }
    }
    return { freed, keys };
  });

  return {
    /** Whether another connection committed since the last call: a counter, compared by the caller. */
    dataVersion: () => statements.dataVersion.get() as number,
    /** The tag versions bumped after `sinceSeq` (0: all of them) and the store's generation. */
    readTagChanges: readChanges,
    bumpTags: (tags: TagBump[], sinceSeq: number, labels: readonly TagLabel[] = []): TagChanges =>
      bumpTags.immediate(tags, sinceSeq, labels),
    /**
     * What the pages carrying `tag` at `version` show for it, when the change that ended that
     * version said so and so did every change since, up to the tag's `current` version.
     */
    labelOf: (tag: string, version: number, current: number): string | null =>
      (statements.labelOf.get({ tag, version, current }) as string | undefined) ?? null,
    countPages: () => (statements.count.get() as { n: number }).n,
    countBytes: () => (statements.bytes.get() as { n: number }).n,
    ...prepareReads(db),
    /** The stored pages carrying any of these tags: as many rows as pages found, whatever the store's size. */
    keysWithTags(tags: string[]): string[] {
      const keys = new Set<string>();
      for (const tag of tags) for (const row of statements.keysOf.all(tag) as Array<{ key: string }>) keys.add(row.key);
      return [...keys];
    },
    // Every write transaction takes the write lock at its start (IMMEDIATE). A deferred one that
    // has read first cannot upgrade once another process has committed since: SQLite answers
    // "database is locked" at once, without waiting out busy_timeout. With two serving processes
    // pre-rendering, that dropped pages from the store many times a second.
    /** Stores pages in one transaction; returns the size of the version each replaced (0 for a new page). */
    writePages: (pages: Array<{ page: WholePage; size: number }>): number[] => writePages.immediate(pages),
    /**
     * Adds encodings made after their pages were stored, each to that same version of its page, in
     * one transaction; returns the bytes the file grew by (none for a page that changed or already had it).
     */
    addEncodings: (entries: AddedEncoding[]): number => addEncodings.immediate(entries),
    /** Drops one page; returns its size (0 when it was not stored). */
    removePage: (key: string): number => removePage.immediate(key),
    /** Records reads (key, time) in one transaction. */
    touchPages: (entries: Array<[string, number]>) => touchPages.immediate(entries),
    /** Drops least recently used pages, never those in `keep` (the ones just written). */
    evictOldest: (bytes: number, keep: ReadonlySet<string>) => evict.immediate(bytes, keep),
    /** Pages of another build point at asset hashes that no longer exist: drop them all. */
    keepOnlyBuild(buildId: string): void {
      if (readMeta('build_id') === buildId) return;
      db.exec('delete from pages; delete from page_tags; delete from page_access; delete from policies');
      writeMeta('build_id', buildId);
    },
    /** The build whose whole pre-render this file holds: a start finds none when the last was stopped before the end. */
    prerenderedBuild: (): string | undefined => readMeta('prerendered_build'),
    markPrerendered: (buildId: string): void => writeMeta('prerendered_build', buildId),
    close: () => db.close(),
  };
}
