import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';

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
  gzip: Buffer;
  br: Buffer;
  tags: Record<string, number>;
  renderedAt: number;
  buildId: string;
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
  gzip: Buffer;
  br: Buffer;
}

const FILE_NAME = 'pages.sqlite';

export type StoreFile = ReturnType<typeof prepareStoreFile>;

const DAMAGED_CODES = new Set(['SQLITE_CORRUPT', 'SQLITE_NOTADB']);

function isDamagedDatabase(error: unknown): boolean {
  return DAMAGED_CODES.has(String((error as { code?: unknown } | null)?.code ?? ''));
}

/** Renames the damaged file (and its -wal and -shm, which belong to it) to `<name>.corrupt-<time>`. */
function moveAsideDamaged(file: string): string {
  const aside = `${file}.corrupt-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  fs.renameSync(file, aside);
  for (const suffix of ['-wal', '-shm']) {
    if (fs.existsSync(file + suffix)) fs.renameSync(file + suffix, aside + suffix);
  }
  return aside;
}

/**
 * Opens (or creates) the store file. The store is a cache: a damaged file is moved aside, logged
 * with both paths, and the store starts empty; any other failure names the file.
 */
export function openStoreFile(dir: string, log: (line: string) => void = console.error) {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, FILE_NAME);
  try {
    return openStoreFileAt(file);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (!isDamagedDatabase(error)) throw new Error(`Page store ${file} could not be opened: ${message}`, { cause: error });
    const aside = moveAsideDamaged(file);
    log(
      `Page store: ${file} is damaged (${message}); moved it to ${aside} and started with an empty store (pages are rendered again).`,
    );
    return openStoreFileAt(file);
  }
}

function openStoreFileAt(file: string) {
  const db = new SQLite(file);
  try {
    return prepareStoreFile(db);
  } catch (error) {
    db.close();
    throw error;
  }
}

function prepareStoreFile(db: SQLite.Database) {
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  // A store from before sizes, access times and the tag index: it is a cache, start it afresh.
  const columns = db.prepare("select name from pragma_table_info('pages')").all() as Array<{ name: string }>;
  if (columns.length > 0 && !columns.some((c) => c.name === 'accessed_at')) db.exec('drop table pages');
  db.exec(`
    create table if not exists meta (key text primary key, value text not null);
    create table if not exists tag_versions (tag text primary key, version integer not null);
    create table if not exists pages (
      key text primary key, content_type text not null, etag text not null,
      tags text not null, rendered_at integer not null, build_id text not null,
      size integer not null, accessed_at integer not null,
      body blob not null, gzip blob not null, br blob not null
    );
    create index if not exists pages_by_access on pages (accessed_at);
    create table if not exists page_tags (tag text not null, key text not null, primary key (tag, key)) without rowid;
  `);
  const statements = {
    get: db.prepare('select * from pages where key = ?'),
    tagsOf: db.prepare('select tags, build_id from pages where key = ?'),
    sizeOf: db.prepare('select size from pages where key = ?'),
    put: db.prepare(
      `insert into pages (key, content_type, etag, tags, rendered_at, build_id, size, accessed_at, body, gzip, br)
       values (@key, @contentType, @etag, @tags, @renderedAt, @buildId, @size, @renderedAt, @body, @gzip, @br)
       on conflict (key) do update set content_type = excluded.content_type, etag = excluded.etag,
         tags = excluded.tags, rendered_at = excluded.rendered_at, build_id = excluded.build_id,
         size = excluded.size, accessed_at = excluded.accessed_at,
         body = excluded.body, gzip = excluded.gzip, br = excluded.br`,
    ),
    untag: db.prepare('delete from page_tags where key = ?'),
    tag: db.prepare('insert or ignore into page_tags (tag, key) values (?, ?)'),
    keysOf: db.prepare('select key from page_tags where tag = ?'),
    remove: db.prepare('delete from pages where key = ?'),
    touch: db.prepare('update pages set accessed_at = ? where key = ?'),
    oldest: db.prepare('select key, size from pages order by accessed_at limit ?'),
    // Never below what this process already handed out (kept in memory when a bump could not be written).
    bump: db.prepare(
      'insert into tag_versions (tag, version) values (?, ?) on conflict (tag) do update set version = max(version + 1, excluded.version) returning version',
    ),
    count: db.prepare('select count(*) as n from pages'),
    bytes: db.prepare('select coalesce(sum(size), 0) as n from pages'),
  };
  /** Bumps each tag's version in one transaction, reporting every new version. */
  const bumpTags = db.transaction((tags: Array<[string, number]>, bumped: (tag: string, version: number) => void) => {
    for (const [tag, atLeast] of tags) bumped(tag, (statements.bump.get(tag, atLeast) as { version: number }).version);
  });
  /** A page, its tag index rows and its size, in one transaction: never half a page after a crash. */
  const writePage = db.transaction((page: StoredPage, size: number): number => {
    const previous = (statements.sizeOf.get(page.key) as { size: number } | undefined)?.size ?? 0;
    statements.put.run({ ...page, tags: JSON.stringify(page.tags), size });
    statements.untag.run(page.key);
    for (const tag in page.tags) statements.tag.run(tag, page.key);
    return previous;
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
  const evict = db.transaction((bytes: number, keep: string): { freed: number; keys: string[] } => {
    let freed = 0;
    const keys: string[] = [];
    while (freed < bytes) {
      const batch = statements.oldest.all(64) as Array<{ key: string; size: number }>;
      const victims = batch.filter((row) => row.key !== keep);
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
    readTagVersions: () => db.prepare('select tag, version from tag_versions').all() as Array<{ tag: string; version: number }>,
    bumpTags: (tags: Array<[string, number]>, bumped: (tag: string, version: number) => void) => bumpTags(tags, bumped),
    countPages: () => (statements.count.get() as { n: number }).n,
    countBytes: () => (statements.bytes.get() as { n: number }).n,
    readPage(key: string): StoredPage | undefined {
      const row = statements.get.get(key) as PageRow | undefined;
      if (!row) return undefined;
      return {
        key: row.key,
        contentType: row.content_type,
        etag: row.etag,
        tags: JSON.parse(row.tags) as Record<string, number>,
        renderedAt: row.rendered_at,
        buildId: row.build_id,
        body: row.body,
        gzip: row.gzip,
        br: row.br,
      };
    },
    /** A page's tag versions and build, without its bodies. */
    readPageTags(key: string): { tags: Record<string, number>; buildId: string } | undefined {
      const row = statements.tagsOf.get(key) as { tags: string; build_id: string } | undefined;
      return row && { tags: JSON.parse(row.tags) as Record<string, number>, buildId: row.build_id };
    },
    /** The stored pages carrying any of these tags: as many rows as pages found, whatever the store's size. */
    keysWithTags(tags: string[]): string[] {
      const keys = new Set<string>();
      for (const tag of tags) for (const row of statements.keysOf.all(tag) as Array<{ key: string }>) keys.add(row.key);
      return [...keys];
    },
    /** Stores a page; returns the size of the version it replaced (0 for a new page). */
    writePage: (page: StoredPage, size: number): number => writePage(page, size),
    /** Drops one page; returns its size (0 when it was not stored). */
    removePage: (key: string): number => removePage(key),
    /** Records reads (key, time) in one transaction. */
    touchPages: (entries: Array<[string, number]>) => touchPages(entries),
    evictOldest: (bytes: number, keep: string) => evict(bytes, keep),
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

/**
 * Drops every stored page in the store at `dir`. Without another process on the store the files
 * go (instant whatever their size, and a damaged file cannot stop the start); otherwise the rows
 * are deleted so the other process keeps a working file.
 */
export function dropStoredPages(dir: string, othersRunning: number): void {
  const file = path.join(dir, FILE_NAME);
  if (!fs.existsSync(file)) return;
  if (othersRunning === 0) {
    for (const suffix of ['', '-wal', '-shm']) fs.rmSync(file + suffix, { force: true });
    return;
  }
  const db = new SQLite(file);
  try {
    db.pragma('busy_timeout = 5000');
    db.exec('delete from pages');
    if (db.prepare("select 1 from sqlite_master where name = 'page_tags'").get()) db.exec('delete from page_tags');
  } finally {
    db.close();
  }
}

/** For GET /healthz: the store's file opens read-only and answers a read; throws why not. */
export function checkStoreFile(dir: string): void {
  const db = new SQLite(path.join(dir, FILE_NAME), { readonly: true, fileMustExist: true, timeout: 1000 });
  try {
    db.prepare('select count(*) from (select 1 from pages limit 1)').get();
  } finally {
    db.close();
  }
}
