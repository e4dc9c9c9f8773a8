import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import {
  CompiledQuery,
  type Kysely,
  SqliteDialect,
  SqliteDriver,
  type AbortableOperationOptions,
  type DatabaseConnection,
  type Driver,
  type SqliteDialectConfig,
} from 'kysely';
import { Migrator, type MigrationProvider } from 'kysely/migration';
import { migrations } from '../../../db/migrations/index.ts';
import type { Database } from './schema.ts';
import { CachingKysely } from './read-cache.ts';
import { noteWriteFailed, noteWriteWorked } from './write-health.ts';
import { limitAsExpression } from './bound-limit.ts';

export type Db = Kysely<Database>;

export interface OpenedDatabase {
  db: Db;
  sqlite: SQLite.Database;
}

/** The connection's cache of the file, where its caller sized it (better-sqlite3 sets 16 MiB). */
function sizeCache(sqlite: SQLite.Database, kib: number | undefined): void {
  if (kib) sqlite.pragma(`cache_size = -${kib}`);
}

/**
 * Opens the SQLite file with the settings every connection needs.
 * WAL lets readers run while a writer commits. synchronous=NORMAL: a commit has written its WAL
 * frames before the call returns, so once an API call answers, its write survives the process
 * dying (kill -9, OOM, a crash): the bytes are in the OS page cache. Only a power cut or kernel
 * crash can lose the last commits, never the file's consistency. FULL would fsync every commit
 * on the thread that serves every reader (measured 2.5-3 ms per commit, p99 up to 24 ms, against
 * 0.02 ms), and every article view commits a view count; docs/hardening.md#durability has the figures.
 * The busy timeout covers a backup or a second process holding the write lock for a moment.
 */
export function openDatabase(
  file: string,
  options: {
    readOnly?: boolean;
    /** SQLite's cache of the file for this connection, in KiB (unset: better-sqlite3's 16 MiB). */
    cacheKib?: number;
  } = {},
): OpenedDatabase {
  if (options.readOnly) {
    // A worker's connection: it reads and can never write (the file is in WAL mode already, set
    // by the server's own connection).
    const sqlite = new SQLite(file, { readonly: true, fileMustExist: true });
    sqlite.pragma('busy_timeout = 5000');
    sizeCache(sqlite, options.cacheKib);
    const db = new CachingKysely({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) }, sqlite);
    return { db, sqlite };
  }
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sizeCache(sqlite, options.cacheKib);
  const db = new CachingKysely(
    { dialect: new ImmediateSqliteDialect({ database: withStatementCache(sqlite) }, sqlite, file) },
    sqlite,
  );
  return { db, sqlite };
}

/**
 * Transactions begin IMMEDIATE: they take the write lock at their start, waiting for it (busy
 * timeout) while another process writes. kysely's plain BEGIN only reads until its first write;
 * when another serving process (WEB_PROCESSES) or the CLI committed meanwhile, that first write
 * fails at once with SQLITE_BUSY, since waiting cannot help a read that is already out of date:
 * a save, a comment or a PDF's search text would fail for no fault of its own.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  readonly #sqlite: SQLite.Database;
  readonly #file: string;
  #watched: DatabaseConnection | undefined;
  constructor(config: SqliteDialectConfig, sqlite: SQLite.Database, file: string) {
    super(config);
    this.#sqlite = sqlite;
    this.#file = file;
  }
  override async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await super.acquireConnection();
    this.#watched ??= watchWrites(connection, this.#sqlite, this.#file);
    return this.#watched;
  }
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
  // SQLite ends the transaction itself on some failures (SQLITE_FULL: a full disk); a ROLLBACK
  // then fails ("no transaction is active") and that error replaced the real one, so a full disk
  // answered a plain 500 instead of 507.
  override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    if (this.#sqlite.inTransaction) await super.rollbackTransaction(connection);
  }
}

class ImmediateSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;
  readonly #sqlite: SQLite.Database;
  readonly #file: string;
  constructor(config: SqliteDialectConfig, sqlite: SQLite.Database, file: string) {
    super(config);
    this.#config = config;
    this.#sqlite = sqlite;
    this.#file = file;
  }
  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.#config, this.#sqlite, this.#file);
  }
}

const WRITE_SQL = /^\s*(insert|update|delete|replace|commit|end)\b/i;

/**
 * Notes, for /healthz (write-health.ts), a write that failed for want of storage and the next one
 * that worked: a statement outside a transaction, or a transaction's commit.
 */
function watchWrites(connection: DatabaseConnection, sqlite: SQLite.Database, file: string): DatabaseConnection {
  return {
    async executeQuery<R>(query: CompiledQuery, options?: AbortableOperationOptions) {
      try {
        const result = await connection.executeQuery<R>(query, options);
        if (!sqlite.inTransaction && WRITE_SQL.test(query.sql)) noteWriteWorked(file);
        return result;
      } catch (error) {
        noteWriteFailed(file, error);
        throw error;
      }
    },
    streamQuery: (query, chunkSize, options) => connection.streamQuery(query, chunkSize, options),
  };
}

/**
 * kysely prepares every query anew; a page render runs the same dozen statements each time, and
 * preparing them was a fifth of a render. Statements are reused per SQL text (bounded), which is
 * safe because better-sqlite3 runs each one to completion synchronously.
 * A LIMIT is prepared as an expression, or SQLite would prepare it again on every run (bound-limit.ts).
 */
function withStatementCache(sqlite: SQLite.Database, limit = 500): SQLite.Database {
  const cache = new Map<string, SQLite.Statement>();
  const prepare = sqlite.prepare.bind(sqlite);
  return new Proxy(sqlite, {
    get(target, property, receiver) {
      if (property !== 'prepare') {
        const value = Reflect.get(target, property, receiver) as unknown;
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      }
      return (source: string) => {
        let statement = cache.get(source);
        if (!statement) {
          statement = prepare(limitAsExpression(source));
          if (cache.size >= limit) cache.delete(cache.keys().next().value!);
          cache.set(source, statement);
        }
        return statement;
      };
    },
  });
}

const provider: MigrationProvider = { getMigrations: async () => migrations };

export async function migrateToLatest(db: Db): Promise<string[]> {
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

export async function migrateDown(db: Db): Promise<string | undefined> {
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateDown();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return results?.[0]?.migrationName;
}
