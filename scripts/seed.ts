// `npm run seed`: fills an empty database (DATABASE_PATH) with the demo site: categories,
// articles with images and PDFs, comments and carousel slides. A database with any article or
// category is left as it is. Run it with the server stopped: the stored pages of the empty site
// are dropped so the next start renders the demo content.
import { loadConfig } from '../src/server/config.ts';
import { migrateToLatest, openDatabase } from '../src/server/db/client.ts';
import { describeSeed, seedDemoIfEmpty } from '../src/server/seed/seed-if-empty.ts';
import { findRunningPids } from '../src/server/page-store/crash-marker.ts';
import { dropStoredPages } from '../src/server/page-store/store-file.ts';

const config = loadConfig();
const running = findRunningPids(config.pageStoreDir);
if (running.length > 0) {
  console.error(`The server is running (pid ${running.join(', ')}): stop it before seeding.`);
  process.exit(1);
}
const { db } = openDatabase(config.databasePath);
try {
  await migrateToLatest(db);
  const result = await seedDemoIfEmpty(db, config.uploadsDir);
  if (!result) {
    console.log(`${config.databasePath} already has content: nothing seeded.`);
  } else {
    dropStoredPages(config.pageStoreDir, 0);
    console.log(`${describeSeed(result)} in ${config.databasePath}`);
  }
} finally {
  await db.destroy();
}
