import type SQLite from 'better-sqlite3';

/**
 * Facts read from a database file on its own connection, for backup and restore: the file may be
 * a backup copy from an older version of the site, so these check what tables it has instead of
 * trusting the schema of the code that runs.
 */

function hasTable(db: SQLite.Database, name: string): boolean {
  return db.prepare("select name from sqlite_master where type = 'table' and name = ?").get(name) !== undefined;
}

/** The migrations applied to a database, in order (kysely's own bookkeeping table). */
export function readMigrationNames(db: SQLite.Database): string[] {
  if (!hasTable(db, 'kysely_migration')) return [];
  return (db.prepare('select name from kysely_migration order by name').all() as Array<{ name: string }>).map((row) => row.name);
}

/** Every uploaded file the database records (none before the uploads table existed). */
export function readUploadPaths(db: SQLite.Database): string[] {
  if (!hasTable(db, 'uploads')) return [];
  return (db.prepare('select path from uploads').all() as Array<{ path: string }>).map((row) => row.path);
}
