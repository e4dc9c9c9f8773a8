import type { Config } from './config.ts';
import { migrateToLatest, openDatabase } from './db/client.ts';
import { countBlogs } from './db/repositories/blogs.ts';
import { ensureAdmin } from './auth/admin-account.ts';
import { seedDemoContent } from '../../db/seed/demo-content.ts';
import { noPageCache, type AppContext } from './context.ts';

const DEFAULT_ADMIN_EMAIL = 'admin@example.com';

/**
 * Opens and migrates the database, makes sure an admin exists and fills an empty site with demo
 * content. Prints what it did; a generated admin password is printed exactly once.
 */
export async function prepareApp(config: Config, log: (line: string) => void = console.log): Promise<AppContext> {
  const { db, sqlite } = openDatabase(config.databasePath);
  const applied = await migrateToLatest(db);
  if (applied.length > 0) log(`Database: applied migrations ${applied.join(', ')}`);

  const hasAdmin = await db.selectFrom('users').select('id').where('is_admin', '=', 1).executeTakeFirst();
  if (config.adminEmail || !hasAdmin) {
    const admin = await ensureAdmin(db, config.adminEmail ?? DEFAULT_ADMIN_EMAIL, config.adminPassword);
    if (admin.action !== 'unchanged') log(`Admin account ${admin.email}: ${admin.action}`);
    if (admin.generatedPassword) {
      log(`  Generated admin password (shown once, change it or set ADMIN_PASSWORD): ${admin.generatedPassword}`);
    }
  }

  if (config.seedDemo && (await countBlogs(db, {})) === 0) {
    const isEmpty = !(await db.selectFrom('categories').select('id').executeTakeFirst());
    if (isEmpty) {
      const admin = await db.selectFrom('users').select('username').where('is_admin', '=', 1).orderBy('id').executeTakeFirst();
      const result = await seedDemoContent(db, config.uploadsDir, admin?.username ?? 'admin');
      log(
        `Demo content: ${result.categories} categories, ${result.blogs} articles, ${result.comments} comments, ${result.slides} slides`,
      );
    }
  }
  return { config, db, sqlite, pageCache: noPageCache };
}
