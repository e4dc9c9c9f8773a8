import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { clearDamageMark, isDamagedFile, markStoreDamaged } from './store-damage.ts';

/** The store's file in its directory. */
export const STORE_FILE_NAME = 'pages.sqlite';

/**
 * The store file's page size, set when the file is made. A page kept in brotli takes 3-4 KB with
 * its row: with 4 KB pages most rows took a page of their own and spilled into a second, and a
 * quarter of the file was unused space (10,000 articles: 157 MB of pages for 120 MB of rows); with
 * 16 KB pages several rows share one (115 MB). Reads cost the same (12 µs a page at random).
 */
export const STORE_PAGE_SIZE = 16_384;
/**
 * SQLite's own cache of the store's file, in KiB (better-sqlite3 sets 16 MiB). The pages readers
 * take are held in the page memory, and the file's pages sit in the kernel's cache shared by every
 * process, so SQLite's copy only needs the tree's inner pages: at 2 MiB each serving process held
 * about 30 MB less under random readers at the same throughput (10,000 articles, interleaved).
 */
export const STORE_CACHE_KIB = 2048;

/** The settings and tables of the store's file; an older layout is brought up to date (it is a cache). */
export function createStoreSchema(db: SQLite.Database): void {
  // Only a new, empty file takes it (a file's page size is fixed once written; see storeFileOutdated).
  db.pragma(`page_size = ${STORE_PAGE_SIZE}`);
  db.pragma('journal_mode = WAL');
  // No fsync, not even at a checkpoint: the store is a cache. A killed process loses nothing (its
  // writes are in the kernel's cache); after a power loss the run's crash marker drops every
  // stored page at the next start, and a file left damaged is moved aside (store-file.ts). The
  // fsyncs cost more than half of storing a page: 450-650 µs a page against 180-280, measured on
  // the 6,341 pages of a 2,000-article site stored 32 to a transaction.
  db.pragma('synchronous = OFF');
  db.pragma('busy_timeout = 5000');
  db.pragma(`cache_size = -${STORE_CACHE_KIB}`);
  // Under the write lock: two serving processes opening an outdated file at once must not drop
  // the tables the other one just made.
  db.transaction(() => bringUpToDate(db)).immediate();
}

/**
 * The pages table's columns, in this order: the small ones first, then the copies with the one
 * most often read first. SQLite reaches a column by walking the row's overflow pages in order, so
 * a brotli copy behind the body and the gzip copy cost a read of every page of the row (12% of a
 * serving thread under random readers). The body may be null: a page with its brotli copy keeps
 * no uncompressed body in the file (`body?`, the layout tells a store of the old layout apart).
 */
const PAGE_COLUMNS = [
  'key',
  'content_type',
  'etag',
  'tags',
  'rendered_at',
  'build_id',
  'size',
  'policy_id',
  'gzip_sum',
  'br_sum',
  'br',
  'gzip',
  'body?',
];

/** Whether an opened file has a pages table of another layout than PAGE_COLUMNS. */
function hasOlderLayout(db: SQLite.Database): boolean {
  const columns = db.prepare('select name, "notnull" as required from pragma_table_info(\'pages\')').all() as Array<{
    name: string;
    required: number;
  }>;
  const layout = columns.map((c) => (c.name === 'body' && !c.required ? 'body?' : c.name));
  return layout.length > 0 && layout.join() !== PAGE_COLUMNS.join();
}

/**
 * Whether the store's file at `file` is of an older layout: a process that has it to itself
 * replaces it with a new file (which takes STORE_PAGE_SIZE) rather than rebuilding its tables in
 * place. False when there is no such file or it cannot be read (the start-up check deals with that).
 */
export function storeFileOutdated(file: string): boolean {
  if (!fs.existsSync(file)) return false;
  try {
    const db = new SQLite(file, { readonly: true });
    try {
      return hasOlderLayout(db);
    } finally {
      db.close();
    }
  } catch {
    return false;
  }
}

function bringUpToDate(db: SQLite.Database): void {
  // A store of another layout is a cache from an older version: start it afresh.
  if (hasOlderLayout(db))
    db.exec('drop table pages; drop table if exists page_tags; drop table if exists page_access; drop table if exists policies');
  // page_tags_by_key: storing a page first deletes its old tag rows by key; without it each store
  // scanned every tag row (2.4 ms a page on the serving thread at 6,000 pages, growing with the store).
  // policies: each Content-Security-Policy once (a site's 31,000 pages have three), named by its
  // id in the pages it answers: 410 bytes a page otherwise, a tenth of a page kept in brotli.
  // tag_labels: what the pages carrying a tag at one version show for it (a category's name before
  // a rename), so a rename can write the new name into them instead of rendering them
  // (category-name-patch.ts).
  // page_access: when each page was last read, in a narrow table of its own. Noting a read in the
  // pages table rewrote rows that hold the bodies: 10,000 reads noted took a serving thread
  // 100-200 ms, the p99 of random readers.
  db.exec(`
    create table if not exists meta (key text primary key, value text not null);
    create table if not exists tag_versions (tag text primary key, version integer not null);
    create table if not exists pages (
      key text primary key, content_type text not null, etag text not null,
      tags text not null, rendered_at integer not null, build_id text not null,
      size integer not null,
      policy_id integer, gzip_sum text, br_sum text,
      br blob, gzip blob, body blob
    );
    create table if not exists policies (id integer primary key, text text not null unique);
    create index if not exists pages_by_size on pages (size);
    create table if not exists page_tags (tag text not null, key text not null, primary key (tag, key)) without rowid;
    create index if not exists page_tags_by_key on page_tags (key);
    create table if not exists page_access (key text primary key, accessed_at integer not null) without rowid;
    create table if not exists tag_labels (tag text not null, version integer not null, label text not null, primary key (tag, version)) without rowid;
    create index if not exists page_access_by_time on page_access (accessed_at);
  `);
  // Every bump records the sequence number of its transaction, so another process (or another
  // server on the same files) reads only the bumps it has not seen yet.
  const versionColumns = db.prepare("select name from pragma_table_info('tag_versions')").all() as Array<{ name: string }>;
  if (!versionColumns.some((c) => c.name === 'seq')) {
    db.exec('alter table tag_versions add column seq integer not null default 0');
  }
  db.exec('create index if not exists tag_versions_by_seq on tag_versions (seq)');
  // The version each tag had when content showing it was last taken down (an article
  // unpublished, a comment hidden): no process answers a page older than it stale.
  if (!versionColumns.some((c) => c.name === 'taken_down')) {
    db.exec('alter table tag_versions add column taken_down integer not null default 0');
  }
}

/**
 * Drops every stored page in the store at `dir`. Without another process on the store the files
 * go (instant whatever their size, and a damaged file cannot stop the start); otherwise the rows
 * are deleted so the other process keeps a working file.
 */
export function dropStoredPages(dir: string, othersRunning: number): void {
  const file = path.join(dir, STORE_FILE_NAME);
  if (!fs.existsSync(file)) return;
  if (othersRunning === 0) {
    for (const suffix of ['', '-wal', '-shm']) fs.rmSync(file + suffix, { force: true });
    clearDamageMark(dir);
    return;
  }
  try {
    deleteRows(file);
  } catch (error) {
    // Its rows cannot be dropped: nobody may trust it, and the next start sets it aside.
    if (!isDamagedFile(error)) throw error;
    markStoreDamaged(dir, error instanceof Error ? error.message : String(error));
  }
}

function deleteRows(file: string): void {
  const db = new SQLite(file);
  try {
    db.pragma('busy_timeout = 5000');
    db.exec('delete from pages');
    for (const table of ['page_tags', 'page_access', 'policies'])
      if (db.prepare('select 1 from sqlite_master where name = ?').get(table)) db.exec(`delete from ${table}`);
    // The other processes see the new generation at their next request and forget the pages they
    // hold in memory too.
    if (db.prepare("select 1 from sqlite_master where name = 'meta'").get())
      db.prepare(
        "insert into meta (key, value) values ('generation', '1') on conflict (key) do update set value = cast(value as integer) + 1",
      ).run();
  } finally {
    db.close();
  }
}
