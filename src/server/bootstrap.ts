import type { Config } from './config.ts';
import { migrateToLatest, openDatabase } from './db/client.ts';
import { findFirstAdmin } from './db/repositories/users.ts';
import { ensureAdmin } from './auth/admin-account.ts';
import { describeSeed, seedDemoIfEmpty } from './seed/seed-if-empty.ts';
import { noPageCache, type AppContext } from './context.ts';

const DEFAULT_ADMIN_EMAIL = 'admin@example.com';

/**
 * Opens and migrates the database, makes sure an admin exists and fills an empty site with demo
 * content. Prints what it did; a generated admin password is printed exactly once.
 */
export async function prepareApp(
  config: Config,
  log: (line: string) => void = console.log,
  /** False in a serving process of several: the first process prepared the database before starting them. */
  prepare = true,
): Promise<AppContext> {
  const { db, sqlite } = openDatabase(config.databasePath);
  if (!prepare) return { config, db, sqlite, pageCache: noPageCache };
  const applied = await migrateToLatest(db);
  if (applied.length > 0) log(`Database: applied migrations ${applied.join(', ')}`);

  if (config.adminEmail || !(await findFirstAdmin(db))) {
    const admin = await ensureAdmin(db, config.adminEmail ?? DEFAULT_ADMIN_EMAIL, config.adminPassword);
    if (admin.action !== 'unchanged') log(`Admin account ${admin.email}: ${admin.action}`);
    if (admin.generatedPassword) {
      log(`  Generated admin password (shown once, change it or set ADMIN_PASSWORD): ${admin.generatedPassword}`);
    }
  }

  if (config.seedDemo) {
    const seeded = await seedDemoIfEmpty(db, config.uploadsDir);
    if (seeded) log(describeSeed(seeded));
  }
  return { config, db, sqlite, pageCache: noPageCache };
}
