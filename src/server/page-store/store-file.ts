import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { createStoreSchema, STORE_FILE_NAME } from './store-schema.ts';
import { PAGE_ENCODINGS, type PageEncoding } from './compress-page.ts';
import { damageFound, isDamagedFile, markStoreDamaged, readDamageMark, setAsideDamaged } from './store-damage.ts';
import { bodyMatchesEtag, checksumOf } from './page-etag.ts';

export { dropStoredPages } from './store-schema.ts';

/**
 * The page store's SQLite file (`pages.sqlite` in the store directory): its schema and every
 * statement run on it. Kept apart from the site database: it is a cache, and dropping it loses
 * nothing.
 */
export interface StoredPage {
  key: string;
  contentType: string;
  etag: string;
  body: Buffer;
  /** Made by a render worker once a reader takes it (or with a render, for a page readers took it of); null until then. */
  gzip: Buffer | null;
  br: Buffer | null;
  /**
   * The Content-Security-Policy it is answered with, narrowed to its own inline scripts and styles
   * when it was rendered (null: not an HTML page, or stored without one).
   */
  policy?: string | null;
  tags: Record<string, number>;
  renderedAt: number;
  buildId: string;
}

export interface TagVersionRow {
  tag: string;
  version: number;
  seq: number;
  /** The version the tag had at its last take-down (0: never): pages older than it are never answered stale. */
  takenDown: number;
}

/** A tag to bump: to at least `atLeast`, and whether the change took down content showing it. */
export type TagBump = [tag: string, atLeast: number, takeDown: boolean];

/** Tag versions bumped since a sequence number, and the store's generation (bumped when its pages are dropped). */
export interface TagChanges {
  rows: TagVersionRow[];
  lastSeq: number;
  generation: number;
}

interface PageRow {
  key: string;
  size: number;
  accessed_at: number;
  content_type: string;
  etag: string;
  tags: string;
  rendered_at: number;
  build_id: string;
  body: Buffer;
  gzip: Buffer | null;
  br: Buffer | null;
  gzip_sum: string | null;
  br_sum: string | null;
  policy: string | null;
}

export type StoreFile = ReturnType<typeof prepareStoreFile>;

/** An encoding made after its page was stored, for the version of the page it was made from. */
export interface AddedEncoding {
  page: Pick<StoredPage, 'key' | 'etag' | 'buildId'>;
  encoding: PageEncoding;
  bytes: Buffer;
}

/**
 * Up to this size the start-up check reads the whole file (`PRAGMA quick_check`: 0.7-0.9 s for a
 * 300 MB store of 6,000 pages on a busy two-core machine, growing with the file). A larger store
 * has its small tables checked whole (versions, tag index, meta: a few ms) and its pages' rows
 * walked (counting their bytes), not the overflow pages holding the bodies: a body is checked
 * against its ETag when read.
 */
const FULL_CHECK_MAX_BYTES = 256 * 1024 * 1024;

export interface OpenStoreOptions {
  log?: (line: string) => void;
  /** Check the file before trusting it (at start; sized to the file, FULL_CHECK_MAX_BYTES). */
  check?: boolean;
  /** A damaged file may be renamed aside: never while other processes have it open. */
  setAside?: boolean;
  /** Pages of another build are dropped at open (their assets no longer exist). */
  buildId?: string;
}

/** The opened file and its pages' bytes; or why it is unusable (damaged, and not set aside). */
export type OpenedStoreFile = { file: StoreFile; bytes: number } | { damaged: string };

/**
 * Opens (or creates) the store file, runs its first reads (and the check, when asked) and reports
 * damage instead of throwing it: a damaged file is set aside, logged with both paths, and the store
 * starts empty; when it may not be set aside (others have it open), or an earlier process marked
 * it damaged, the caller gets `{ damaged }` and serves without the store. Any other failure names
 * the file.
 */
export function openPageStoreFile(dir: string, options: OpenStoreOptions = {}): OpenedStoreFile {
  const log = options.log ?? console.error;
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, STORE_FILE_NAME);
  const setAside = (reason: string) => {
    const aside = setAsideDamaged(file);
    log(
      `Page store: ${file} is damaged (${reason}); moved it to ${aside} and started with an empty store (pages are rendered again).`,
    );
  };
  const marked = readDamageMark(dir);
  if (marked !== null) {
    if (!options.setAside) return { damaged: marked };
    setAside(marked);
  }
  try {
    return openAndCheck(file, options);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (!isDamagedFile(error)) throw new Error(`Page store ${file} could not be opened: ${message}`, { cause: error });
    if (!options.setAside) {
      markStoreDamaged(dir, message);
      log(`Page store: ${file} is damaged (${message}); pages are rendered without it until the next start sets it aside.`);
      return { damaged: message };
    }
    setAside(message);
    return openAndCheck(file, { ...options, check: false });
  }
}

/** Opens (or creates) the store file; a damaged one is set aside and the store starts empty. */
export function openStoreFile(dir: string, log: (line: string) => void = console.error): StoreFile {
  const opened = openPageStoreFile(dir, { log, setAside: true });
  if ('damaged' in opened) throw damageFound(opened.damaged);
  return opened.file;
}

/** An empty store in memory, for a store whose file is damaged: its guard never lets a call reach it. */
export function openDetachedStoreFile(): StoreFile {
  return prepareStoreFile(new SQLite(':memory:'));
}

function openAndCheck(file: string, options: OpenStoreOptions): { file: StoreFile; bytes: number } {
  const db = new SQLite(file);
  try {
    const store = prepareStoreFile(db);
    if (options.check) checkStoreFileAtStart(db, file);
    if (options.buildId !== undefined) store.keepOnlyBuild(options.buildId);
    return { file: store, bytes: store.countBytes() };
  } catch (error) {
    db.close();
    throw error;
  }
}

/**
 * Throws when SQLite finds the file's structure damaged. A large file has its small tables checked
 * whole and its pages' rows walked (counting their bytes, next); their bodies are checked as read.
 */
function checkStoreFileAtStart(db: SQLite.Database, file: string): void {
  const size = fs.statSync(file).size + (fs.statSync(`${file}-wal`, { throwIfNoEntry: false })?.size ?? 0);
  const checks =
    size <= FULL_CHECK_MAX_BYTES
      ? ['quick_check']
      : ["quick_check('meta')", "quick_check('tag_versions')", "quick_check('page_tags')"];
  for (const check of checks) {
    const found = db.pragma(check, { simple: true });
    // The first findings are enough for the log line (SQLite lists up to a hundred).
    if (found !== 'ok') throw damageFound(`${check}: ${String(found).split('\n').slice(0, 3).join('; ')}`);
  }
}

/** Throws the damage found when a stored encoding no longer sums to the checksum written with it. */
function checkEncoding(key: string, encoding: PageEncoding, bytes: Buffer | null, sum: string | null): void {
  if (bytes && checksumOf(bytes) !== sum) throw damageFound(`the stored ${encoding} copy of ${key} does not match its checksum`);
}

/** A row's tags as written, or the damage found when they no longer read as written. */
function parseTags(key: string, text: string): Record<string, number> {
  try {
    return JSON.parse(text) as Record<string, number>;
  } catch {
    throw damageFound(`the stored tags of ${key} are unreadable`);
  }
}

function prepareStoreFile(db: SQLite.Database) {
  createStoreSchema(db);
  const statements = {
    get: db.prepare('select * from pages where key = ?'),
    tagsOf: db.prepare('select tags, build_id from pages where key = ?'),
    encodingsOf: db.prepare('select gzip is not null as gzip, br is not null as br from pages where key = ?'),
    gzipOf: db.prepare(
      'select gzip as bytes, gzip_sum as sum from pages where key = @key and etag = @etag and build_id = @buildId',
    ),
    brOf: db.prepare('select br as bytes, br_sum as sum from pages where key = @key and etag = @etag and build_id = @buildId'),
    sizeOf: db.prepare('select size from pages where key = ?'),
    put: db.prepare(
      `insert into pages (key, content_type, etag, tags, rendered_at, build_id, size, accessed_at, body, gzip, br, policy, gzip_sum, br_sum)
       values (@key, @contentType, @etag, @tags, @renderedAt, @buildId, @size, @renderedAt, @body, @gzip, @br, @policy, @gzipSum, @brSum)
       on conflict (key) do update set content_type = excluded.content_type, etag = excluded.etag,
         tags = excluded.tags, rendered_at = excluded.rendered_at, build_id = excluded.build_id,
         size = excluded.size, accessed_at = excluded.accessed_at, body = excluded.body, gzip = excluded.gzip,
         br = excluded.br, policy = excluded.policy, gzip_sum = excluded.gzip_sum, br_sum = excluded.br_sum`,
    ),
    untag: db.prepare('delete from page_tags where key = ?'),
    tag: db.prepare('insert or ignore into page_tags (tag, key) values (?, ?)'),
    keysOf: db.prepare('select key from page_tags where tag = ?'),
    remove: db.prepare('delete from pages where key = ?'),
    // Only onto the version it was made from, and only once (another process may have added it first).
    addGzip: db.prepare(
      'update pages set gzip = @bytes, gzip_sum = @sum, size = size + length(@bytes) where key = @key and etag = @etag and build_id = @buildId and gzip is null',
    ),
    addBr: db.prepare(
      'update pages set br = @bytes, br_sum = @sum, size = size + length(@bytes) where key = @key and etag = @etag and build_id = @buildId and br is null',
    ),
    touch: db.prepare('update pages set accessed_at = ? where key = ?'),
    oldest: db.prepare('select key, size from pages order by accessed_at limit ?'),
    // Never below what this process already handed out (kept in memory when a bump could not be written).
    bump: db.prepare(
      `insert into tag_versions (tag, version, seq, taken_down) values (@tag, @atLeast, @seq, @atLeast * @takeDown)
       on conflict (tag) do update set version = max(version + 1, excluded.version), seq = excluded.seq,
         taken_down = iif(@takeDown, max(version + 1, excluded.version), taken_down)
       returning version, taken_down as takenDown`,
    ),
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
  const bumpTags = db.transaction((tags: TagBump[], sinceSeq: number): TagChanges => {
    const changes = readChanges(sinceSeq);
    const seq = (statements.lastSeq.get() as number) + 1;
    for (const [tag, atLeast, takeDown] of tags) {
      const bumped = statements.bump.get({ tag, atLeast, seq, takeDown: takeDown ? 1 : 0 }) as {
        version: number;
        takenDown: number;
      };
      changes.rows.push({ tag, ...bumped, seq });
    }
    return { ...changes, lastSeq: seq };
  });
  /** Pages, their tag index rows and sizes, in one transaction: never half a page after a crash. */
  const writePages = db.transaction((pages: Array<{ page: StoredPage; size: number }>): number[] =>
    pages.map(({ page, size }) => {
      const previous = (statements.sizeOf.get(page.key) as { size: number } | undefined)?.size ?? 0;
      statements.put.run({
        ...page,
        tags: JSON.stringify(page.tags),
        policy: page.policy ?? null,
        size,
        gzipSum: page.gzip && checksumOf(page.gzip),
        brSum: page.br && checksumOf(page.br),
      });
      statements.untag.run(page.key);
      for (const tag in page.tags) statements.tag.run(tag, page.key);
      return previous;
    }),
  );
  /** Encodings made after their pages were stored, each onto the version it was made from; returns the bytes added. */
  const addEncodings = db.transaction((entries: AddedEncoding[]): number => {
    let added = 0;
    for (const { page, encoding, bytes } of entries) {
      const statement = encoding === 'br' ? statements.addBr : statements.addGzip;
      const row = { key: page.key, etag: page.etag, buildId: page.buildId, bytes, sum: checksumOf(bytes) };
      if (statement.run(row).changes > 0) added += bytes.length;
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
    bumpTags: (tags: TagBump[], sinceSeq: number): TagChanges => bumpTags.immediate(tags, sinceSeq),
    countPages: () => (statements.count.get() as { n: number }).n,
    countBytes: () => (statements.bytes.get() as { n: number }).n,
    readPage(key: string): StoredPage | undefined {
      const row = statements.get.get(key) as PageRow | undefined;
      if (!row) return undefined;
      // Damage inside a body is invisible to SQLite: its ETag carries the checksum of what was stored.
      if (!bodyMatchesEtag(row.body, row.etag)) throw damageFound(`the stored body of ${key} does not match its ETag`);
      checkEncoding(key, 'gzip', row.gzip, row.gzip_sum);
      checkEncoding(key, 'br', row.br, row.br_sum);
      return {
        key: row.key,
        contentType: row.content_type,
        etag: row.etag,
        tags: parseTags(key, row.tags),
        renderedAt: row.rendered_at,
        buildId: row.build_id,
        body: row.body,
        gzip: row.gzip,
        br: row.br,
        policy: row.policy,
      };
    },
    /** A page's tag versions and build, without its bodies. */
    readPageTags(key: string): { tags: Record<string, number>; buildId: string } | undefined {
      const row = statements.tagsOf.get(key) as { tags: string; build_id: string } | undefined;
      return row && { tags: parseTags(key, row.tags), buildId: row.build_id };
    },
    /** An encoding of that version of the page, when the file has it (another process made it). */
    readEncoding(page: Pick<StoredPage, 'key' | 'etag' | 'buildId'>, encoding: PageEncoding): Buffer | null {
      const statement = encoding === 'br' ? statements.brOf : statements.gzipOf;
      const row = statement.get({ key: page.key, etag: page.etag, buildId: page.buildId }) as
        | { bytes: Buffer | null; sum: string | null }
        | undefined;
      if (!row?.bytes) return null;
      checkEncoding(page.key, encoding, row.bytes, row.sum);
      return row.bytes;
    },
    /** Which encodings the stored page has, without reading them. */
    readEncodings(key: string): PageEncoding[] {
      const row = statements.encodingsOf.get(key) as { gzip: number; br: number } | undefined;
      if (!row) return [];
      return PAGE_ENCODINGS.filter((encoding) => row[encoding]);
    },
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
    writePages: (pages: Array<{ page: StoredPage; size: number }>): number[] => writePages.immediate(pages),
    /**
     * Adds encodings made after their pages were stored, each to that same version of its page, in
     * one transaction; returns the bytes added (none for a page that changed or already had it).
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
      const stored = (db.prepare("select value from meta where key = 'build_id'").get() as { value: string } | undefined)?.value;
      if (stored === buildId) return;
      db.exec('delete from pages; delete from page_tags');
      db.prepare(
        "insert into meta (key, value) values ('build_id', ?) on conflict (key) do update set value = excluded.value",
      ).run(buildId);
    },
    close: () => db.close(),
  };
}

/** For GET /healthz: the store's file opens read-only and answers a read; throws why not. */
export function checkStoreFile(dir: string): void {
  const db = new SQLite(path.join(dir, STORE_FILE_NAME), { readonly: true, fileMustExist: true, timeout: 1000 });
  try {
    db.prepare('select count(*) from (select 1 from pages limit 1)').get();
  } finally {
    db.close();
  }
}
