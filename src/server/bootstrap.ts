import type { Config } from './config.ts';
import { migrateToLatest, openDatabase } from './db/client.ts';
import { ensureAdmin } from './auth/admin-account.ts';
import { ensureSetupLink } from './auth/owner-setup.ts';
import { describeSeed, seedDemoIfEmpty } from './seed/seed-if-empty.ts';
import type { AppBase } from './context.ts';

/**
 * Opens and migrates the database, makes sure the site has an owner or a way to create one, and
 * fills an empty site with demo content. With ADMIN_EMAIL (unattended installs) that admin is
 * created or updated, a generated password printed exactly once; without it and with no admin yet,
 * the one-time setup link is printed (the same link at every start until it is used).
 */
export async function prepareApp(
  config: Config,
  log: (line: string) => void = console.log,
  /** False in a serving process of several: the first process prepared the database before starting them. */
  prepare = true,
): Promise<AppBase> {
  const { db, sqlite } = openDatabase(config.databasePath);
  if (!prepare) return { config, db, sqlite };
  const applied = await migrateToLatest(db);
  if (applied.length > 0) log(`Database: applied migrations ${applied.join(', ')}`);

  if (config.adminEmail) {
    const admin = await ensureAdmin(db, config.adminEmail, config.adminPassword);
    if (admin.action !== 'unchanged') log(`Admin account ${admin.email}: ${admin.action}`);
    if (admin.generatedPassword) {
      log(`  Generated admin password (shown once, change it or set ADMIN_PASSWORD): ${admin.generatedPassword}`);
    }
  }
  const setupLink = await ensureSetupLink(db, config.publicOrigin);
  if (setupLink) {
    log(`First run: open ${setupLink} to create the owner's account and name the site.`);
    log('  The link works once, while the site has no admin; `npm run admin -- --setup-link` shows it again.');
  }

  if (config.seedDemo) {
    const seeded = await seedDemoIfEmpty(db, config.uploadsDir);
    if (seeded) log(describeSeed(seeded));
  }
  return { config, db, sqlite };
}
