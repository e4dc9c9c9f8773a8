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
  db.exec(`
    create table if not exists meta (key text primary key, value text not null);
    create table if not exists tag_versions (tag text primary key, version integer not null);
    create table if not exists pages (
      key text primary key, content_type text not null, etag text not null,
      tags text not null, rendered_at integer not null, build_id text not null,
      body blob not null, gzip blob not null, br blob not null
    );
  `);
  const statements = {
    get: db.prepare('select * from pages where key = ?'),
    put: db.prepare(
      `insert into pages (key, content_type, etag, tags, rendered_at, build_id, body, gzip, br)
       values (@key, @contentType, @etag, @tags, @renderedAt, @buildId, @body, @gzip, @br)
       on conflict (key) do update set content_type = excluded.content_type, etag = excluded.etag,
         tags = excluded.tags, rendered_at = excluded.rendered_at, build_id = excluded.build_id,
         body = excluded.body, gzip = excluded.gzip, br = excluded.br`,
    ),
    bump: db.prepare(
      'insert into tag_versions (tag, version) values (?, 1) on conflict (tag) do update set version = version + 1 returning version',
    ),
    count: db.prepare('select count(*) as n from pages'),
  };
  /** Bumps each tag's version in one transaction, reporting every new version. */
  const bumpTags = db.transaction((tags: string[], bumped: (tag: string, version: number) => void) => {
    for (const tag of tags) bumped(tag, (statements.bump.get(tag) as { version: number }).version);
  });

  return {
    readTagVersions: () => db.prepare('select tag, version from tag_versions').all() as Array<{ tag: string; version: number }>,
    bumpTags: (tags: string[], bumped: (tag: string, version: number) => void) => bumpTags(tags, bumped),
    countPages: () => (statements.count.get() as { n: number }).n,
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
    writePage: (page: StoredPage) => void statements.put.run({ ...page, tags: JSON.stringify(page.tags) }),
    /** Pages of another build point at asset hashes that no longer exist: drop them all. */
    keepOnlyBuild(buildId: string): void {
      const stored = (db.prepare("select value from meta where key = 'build_id'").get() as { value: string } | undefined)?.value;
      if (stored === buildId) return;
      db.exec('delete from pages');
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
  } finally {
    db.close();
  }
}
