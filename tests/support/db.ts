import { migrations } from '../../db/migrations/index.ts';
import { migrateDown, migrateToLatest, openDatabase, type Db, type OpenedDatabase } from '../../src/server/db/client.ts';

/** A fresh in-memory database with every migration applied, for unit tests of services and repositories. */
export async function openMigratedDatabase(): Promise<OpenedDatabase & { close: () => void }> {
  const opened = openDatabase(':memory:');
  await migrateToLatest(opened.db);
  return { ...opened, close: () => opened.sqlite.close() };
}

/**
 * Reverts every migration applied after `name` (newest first), so a test of one migration's down
 * step does not depend on how many migrations came after it. Answers the reverted names.
 */
export async function revertMigrationsAfter(db: Db, name: string): Promise<string[]> {
  const after = Object.keys(migrations).filter((other) => other > name);
  const reverted: string[] = [];
  for (let i = 0; i < after.length; i++) {
    const done = await migrateDown(db);
    if (done) reverted.push(done);
  }
  return reverted;
}

/** The names of `name` and every migration after it, in order (what migrateToLatest re-applies). */
export function migrationsFrom(name: string): string[] {
  return Object.keys(migrations).filter((other) => other >= name);
}
