// Applies pending migrations (or, with --down, reverts the last one) to DATABASE_PATH.
import { loadConfig } from '../src/server/config.ts';
import { migrateDown, migrateToLatest, openDatabase } from '../src/server/db/client.ts';

const config = loadConfig();
const { db } = openDatabase(config.databasePath);
if (process.argv.includes('--down')) {
  const name = await migrateDown(db);
  console.log(name ? `Reverted ${name}` : 'Nothing to revert');
} else {
  const applied = await migrateToLatest(db);
  console.log(applied.length ? `Applied ${applied.join(', ')}` : `Database ${config.databasePath} is up to date`);
}
await db.destroy();
