import type SQLite from 'better-sqlite3';
import type { Db } from '../client.ts';

/** The `site_settings` rows (migration 0006): key and text value; a missing key is a default. */
export async function readSettingRows(db: Db): Promise<Record<string, string>> {
  const rows = await db.selectFrom('site_settings').select(['key', 'value']).execute();
  return Object.fromEntries(rows.map((row) => [row.key, row.value]));
}

/** Writes the given keys (insert or replace); call inside the save's transaction. */
export async function writeSettingRows(db: Db, values: Record<string, string>, now = new Date().toISOString()): Promise<void> {
  const rows = Object.entries(values).map(([key, value]) => ({ key, value, updated_at: now }));
  if (rows.length === 0) return;
  await db
    .insertInto('site_settings')
    .values(rows)
    .onConflict((oc) =>
      oc.column('key').doUpdateSet((eb) => ({ value: eb.ref('excluded.value'), updated_at: eb.ref('excluded.updated_at') })),
    )
    .execute();
}

/**
 * SQLite's `data_version`: it changes when another connection (another process) committed to the
 * file, so a cache in this process (the search vocabulary) knows when to read again.
 */
// One prepared statement per connection: pragma() prepares anew on each call.
const dataVersionStatements = new WeakMap<SQLite.Database, SQLite.Statement>();

export function readDataVersion(sqlite: SQLite.Database): number {
  let statement = dataVersionStatements.get(sqlite);
  if (!statement) {
    statement = sqlite.prepare('pragma data_version').pluck();
    dataVersionStatements.set(sqlite, statement);
  }
  return Number(statement.get());
}

/**
 * Sets `key` to `next` only if it still holds `expected` (null: the row does not exist yet):
 * true for the one caller, among processes racing, whose write happened.
 */
export async function replaceSettingIf(db: Db, key: string, expected: string | null, next: string): Promise<boolean> {
  const now = new Date().toISOString();
  if (expected === null) {
    const inserted = await db
      .insertInto('site_settings')
      .values({ key, value: next, updated_at: now })
      .onConflict((oc) => oc.column('key').doNothing())
      .returning('key')
      .executeTakeFirst();
    return inserted !== undefined;
  }
  const result = await db
    .updateTable('site_settings')
    .set({ value: next, updated_at: now })
    .where('key', '=', key)
    .where('value', '=', expected)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
