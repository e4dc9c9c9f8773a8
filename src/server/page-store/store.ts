import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import zlib from 'node:zlib';
import SQLite from 'better-sqlite3';

/**
 * The page store: rendered pages with their three encodings, kept in a SQLite file of their own
 * (a page is written in one transaction, so a kill -9 mid-write leaves the old page or the new one,
 * never half of either) with the hot ones in memory.
 *
 * Freshness is versioned per tag: a page records the version of every tag it carries when it was
 * rendered; invalidating a tag bumps its version, so the cost of a change is O(number of tags it
 * touched), whatever the number of stored pages. A page is fresh when all its tags still have the
 * versions it recorded and it was rendered by the running build.
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

export interface PageStoreOptions {
  dir: string;
  buildId: string;
  /** Memory budget for hot pages, all three encodings counted. */
  memoryBytes?: number;
  /** Where the one line about a damaged store file goes (default: stderr). */
  log?: (line: string) => void;
}

export interface StoreStats {
  pages: number;
  memoryPages: number;
  memoryBytes: number;
}

function sizeOf(page: StoredPage): number {
  return page.body.length + page.gzip.length + page.br.length + 256;
}

export function compressPage(body: Buffer): { gzip: Buffer; br: Buffer } {
  return {
    gzip: zlib.gzipSync(body, { level: 6 }),
    br: zlib.brotliCompressSync(body, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: 6,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
        [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
      },
    }),
  };
}

const DAMAGED_CODES = new Set(['SQLITE_CORRUPT', 'SQLITE_NOTADB']);

function isDamagedDatabase(error: unknown): boolean {
  return DAMAGED_CODES.has(String((error as { code?: unknown } | null)?.code ?? ''));
}

/** Opens the store file, makes its tables, drops another build's pages and reads the tag versions. */
function openStoreFile(file: string, buildId: string): { db: SQLite.Database; versions: Map<string, number> } {
  const db = new SQLite(file);
  try {
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
    const storedBuild = (db.prepare("select value from meta where key = 'build_id'").get() as { value: string } | undefined)
      ?.value;
    if (storedBuild !== buildId) {
      // Pages of another build point at asset hashes that no longer exist: drop them all.
      db.exec('delete from pages');
      db.prepare(
        "insert into meta (key, value) values ('build_id', ?) on conflict (key) do update set value = excluded.value",
      ).run(buildId);
    }
    const versions = new Map<string, number>();
    for (const row of db.prepare('select tag, version from tag_versions').all() as Array<{ tag: string; version: number }>) {
      versions.set(row.tag, row.version);
    }
    return { db, versions };
  } catch (error) {
    db.close();
    throw error;
  }
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

export class PageStore {
  readonly buildId: string;
  private readonly db: SQLite.Database;
  private readonly versions: Map<string, number>;
  /** Sequence number of each tag's last invalidation, to catch renders that raced a change. */
  private readonly invalidatedAt = new Map<string, number>();
  private sequence = 0;
  private readonly memory = new Map<string, StoredPage>();
  private memoryUsed = 0;
  private readonly memoryLimit: number;
  private readonly statements;

  constructor(options: PageStoreOptions) {
    fs.mkdirSync(options.dir, { recursive: true });
    this.buildId = options.buildId;
    this.memoryLimit = options.memoryBytes ?? 48 * 1024 * 1024;
    const file = path.join(options.dir, 'pages.sqlite');
    // The store is a cache: a damaged file is moved aside and the store starts empty.
    let opened: ReturnType<typeof openStoreFile>;
    try {
      opened = openStoreFile(file, this.buildId);
    } catch (error) {
      if (!isDamagedDatabase(error))
        throw new Error(`Page store ${file} could not be opened: ${(error as Error).message}`, { cause: error });
      const aside = moveAsideDamaged(file);
      (options.log ?? console.error)(
        `Page store: ${file} is damaged (${(error as Error).message}); moved it to ${aside} and started with an empty store (pages are rendered again).`,
      );
      opened = openStoreFile(file, this.buildId);
    }
    this.db = opened.db;
    this.versions = opened.versions;
    this.statements = {
      get: this.db.prepare('select * from pages where key = ?'),
      put: this.db.prepare(
        `insert into pages (key, content_type, etag, tags, rendered_at, build_id, body, gzip, br)
         values (@key, @contentType, @etag, @tags, @renderedAt, @buildId, @body, @gzip, @br)
         on conflict (key) do update set content_type = excluded.content_type, etag = excluded.etag,
           tags = excluded.tags, rendered_at = excluded.rendered_at, build_id = excluded.build_id,
           body = excluded.body, gzip = excluded.gzip, br = excluded.br`,
      ),
      bump: this.db.prepare(
        'insert into tag_versions (tag, version) values (?, 1) on conflict (tag) do update set version = version + 1 returning version',
      ),
      count: this.db.prepare('select count(*) as n from pages'),
    };
  }

  /** The number of pages stored on disk. */
  count(): number {
    return (this.statements.count.get() as { n: number }).n;
  }

  stats(): StoreStats {
    return { pages: this.count(), memoryPages: this.memory.size, memoryBytes: this.memoryUsed };
  }

  /** Starts a render: remember this and pass it to put(), so a change during the render is not lost. */
  beginRender(): number {
    return this.sequence;
  }

  isFresh(page: StoredPage): boolean {
    if (page.buildId !== this.buildId) return false;
    for (const tag in page.tags) {
      if ((this.versions.get(tag) ?? 0) !== page.tags[tag]) return false;
    }
    return true;
  }

  /** A stored page, fresh or stale, from memory or disk. */
  get(key: string): StoredPage | undefined {
    const hot = this.memory.get(key);
    if (hot) {
      // Map order is insertion order: re-inserting marks it most recently used.
      this.memory.delete(key);
      this.memory.set(key, hot);
      return hot;
    }
    const row = this.statements.get.get(key) as
      | {
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
      | undefined;
    if (!row) return undefined;
    const page: StoredPage = {
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
    this.remember(page);
    return page;
  }

  /**
   * Stores a freshly rendered page. Returns null, storing nothing, when one of its tags was
   * invalidated after the render began: that render may show old data.
   */
  put(
    key: string,
    input: { contentType: string; body: Buffer; tags: string[]; gzip?: Buffer; br?: Buffer },
    renderStartedAt: number,
    options: { keepInMemory?: boolean } = {},
  ): StoredPage | null {
    for (const tag of input.tags) {
      if ((this.invalidatedAt.get(tag) ?? -1) >= renderStartedAt) return null;
    }
    const tags: Record<string, number> = {};
    for (const tag of input.tags) tags[tag] = this.versions.get(tag) ?? 0;
    const { gzip, br } = input.gzip && input.br ? { gzip: input.gzip, br: input.br } : compressPage(input.body);
    const page: StoredPage = {
      key,
      contentType: input.contentType,
      etag: `"${crypto.createHash('sha1').update(input.body).digest('base64url').slice(0, 22)}"`,
      body: input.body,
      gzip,
      br,
      tags,
      renderedAt: Date.now(),
      buildId: this.buildId,
    };
    this.statements.put.run({ ...page, tags: JSON.stringify(tags) });
    // A full pre-render passes false: memory is for the pages readers ask for, not for all of them.
    if (options.keepInMemory ?? true) this.remember(page);
    else this.forget(key);
    return page;
  }

  /** Marks every page carrying one of these tags stale: O(number of tags). */
  invalidate(tags: string[]): void {
    this.sequence++;
    const bumpAll = this.db.transaction((list: string[]) => {
      for (const tag of list) {
        const { version } = this.statements.bump.get(tag) as { version: number };
        this.versions.set(tag, version);
        this.invalidatedAt.set(tag, this.sequence);
      }
    });
    bumpAll([...new Set(tags)]);
    this.sequence++;
  }

  close(): void {
    this.db.close();
  }

  private forget(key: string): void {
    const previous = this.memory.get(key);
    if (previous) {
      this.memoryUsed -= sizeOf(previous);
      this.memory.delete(key);
    }
  }

  private remember(page: StoredPage): void {
    const previous = this.memory.get(page.key);
    if (previous) {
      this.memoryUsed -= sizeOf(previous);
      this.memory.delete(page.key);
    }
    const size = sizeOf(page);
    if (size > this.memoryLimit / 4) return;
    this.memory.set(page.key, page);
    this.memoryUsed += size;
    for (const [key, old] of this.memory) {
      if (this.memoryUsed <= this.memoryLimit) break;
      this.memory.delete(key);
      this.memoryUsed -= sizeOf(old);
    }
  }
}
