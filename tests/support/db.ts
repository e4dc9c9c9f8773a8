import { migrateToLatest, openDatabase, type OpenedDatabase } from '../../src/server/db/client.ts';

/** A fresh in-memory database with every migration applied, for unit tests of services and repositories. */
export async function openMigratedDatabase(): Promise<OpenedDatabase & { close: () => void }> {
  const opened = openDatabase(':memory:');
  await migrateToLatest(opened.db);
  return { ...opened, close: () => opened.sqlite.close() };
}
