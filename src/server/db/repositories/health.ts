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

/**
 * For GET /healthz, after a write to `file` failed: does a write work again? Rewrites the file's
 * `user_version` (unused by the site) with the value it has, on a short connection of its own: a
 * real commit, which needs room in the file's log like any other write, and changes nothing.
 */
export function probeWrite(file: string): boolean {
  try {
    const db = new SQLite(file, { fileMustExist: true, timeout: 1000 });
    try {
      const version = Number(db.pragma('user_version', { simple: true }));
      db.pragma(`user_version = ${version}`);
      return true;
    } finally {
      db.close();
    }
  } catch {
    return false;
  }
}
