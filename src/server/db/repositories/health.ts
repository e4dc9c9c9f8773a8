import type SQLite from 'better-sqlite3';

/** For GET /healthz: the site database answers a query; throws why not. */
export function pingDatabase(sqlite: SQLite.Database): void {
  sqlite.prepare('select 1').get();
}
