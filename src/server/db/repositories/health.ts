import SQLite from 'better-sqlite3';

/** For GET /healthz: the site database answers a query; throws why not. */
export function pingDatabase(sqlite: SQLite.Database): void {
  sqlite.prepare('select 1').get();
}

/**
 * Whether the database file itself is sound (`PRAGMA quick_check` on its own read-only
 * connection): 'ok', or what SQLite found. Asked only when a start failed on a damaged file, so
 * the restore advice is given for the database and never for another file (the page store).
 */
export function quickCheckDatabaseFile(file: string): string {
  try {
    const db = new SQLite(file, { readonly: true, fileMustExist: true, timeout: 5000 });
    try {
      return String(db.pragma('quick_check', { simple: true }));
    } finally {
      db.close();
    }
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
