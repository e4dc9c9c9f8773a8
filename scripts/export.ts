// `npm run export -- --out FILE [--markdown]`: the whole site (DATABASE_PATH, UPLOADS_DIR) as one
// archive that `npm run import -- FILE` reads back into an empty site; with --markdown, one
// Markdown file per article with its uploads, for a static site generator. See docs/export.md.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig, ConfigError } from '../src/server/config.ts';
import { migrateToLatest, openDatabase } from '../src/server/db/client.ts';
import { AppError } from '../src/server/errors.ts';
import { exportSite } from '../src/server/export/site-export.ts';
import { exportMarkdown } from '../src/server/export/markdown-export.ts';
import { ArchiveError } from '../src/server/export/tar-archive.ts';

const usage = 'Usage: npm run export -- --out FILE.tar.gz [--markdown]';

let values: { out?: string; markdown?: boolean; help?: boolean };
try {
  ({ values } = parseArgs({
    options: { out: { type: 'string' }, markdown: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
  }));
} catch (error) {
  console.error(`${(error as Error).message}\n${usage}`);
  process.exit(2);
}
if (values.help) {
  console.log(usage);
  process.exit(0);
}
if (!values.out) {
  console.error(usage);
  process.exit(2);
}
const out = path.resolve(values.out);

try {
  const config = loadConfig();
  const { db } = openDatabase(config.databasePath);
  try {
    await migrateToLatest(db);
    if (values.markdown) {
      const summary = await exportMarkdown({ db, uploadsDir: config.uploadsDir, out });
      console.log(`Markdown export written to ${out}: ${summary.articles} articles, ${summary.files} uploads.`);
    } else {
      const summary = await exportSite({ db, uploadsDir: config.uploadsDir, origin: config.publicOrigin, out });
      const rows = Object.entries(summary.tables)
        .filter(([, count]) => count > 0)
        .map(([table, count]) => `${count} ${table.replace(/_/g, ' ')}`)
        .join(', ');
      console.log(`Export written to ${out} (${(summary.archiveBytes / 1024 / 1024).toFixed(1)} MiB)`);
      console.log(
        `  ${rows || 'no content'}; ${summary.files} uploaded files (${(summary.fileBytes / 1024 / 1024).toFixed(1)} MiB)`,
      );
    }
  } finally {
    await db.destroy();
  }
} catch (error) {
  if (error instanceof AppError || error instanceof ConfigError || error instanceof ArchiveError) {
    console.error(`Export failed: ${error.message}`);
    process.exit(1);
  }
  throw error;
}
