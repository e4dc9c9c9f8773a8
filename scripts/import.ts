// `npm run import -- FILE|FOLDER [--uploads DIR|ZIP] [--dry-run]`: brings a WordPress export (WXR) or a
// Ghost export (JSON) into the site (DATABASE_PATH), with the old site's images from a copy of
// its uploads folder. Running it again changes nothing. An export archive of this site
// (`npm run export`) is read back into an empty site exactly. See README "Import",
// src/server/import/README.md and docs/export.md.
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { loadConfig, ConfigError } from '../src/server/config.ts';
import { migrateToLatest, openDatabase } from '../src/server/db/client.ts';
import { AppError } from '../src/server/errors.ts';
import { readImportFile } from '../src/server/import/import-file.ts';
import { runImport } from '../src/server/import/import-run.ts';
import { formatReport } from '../src/server/import/import-report.ts';
import { folderSource } from '../src/server/import/upload-source.ts';
import { isZipFile, zipSource } from '../src/server/import/zip-source.ts';
import { looksLikeArchive, readSiteArchive, restoreSiteArchive } from '../src/server/export/site-restore.ts';
import { findRunningPids } from '../src/server/page-store/crash-marker.ts';
import { dropStoredPages } from '../src/server/page-store/store-file.ts';

const usage = 'Usage: npm run import -- FILE|FOLDER [--uploads DIR|ZIP] [--dry-run]';

function progress(label: string) {
  if (!process.stderr.isTTY) return undefined;
  return (done: number, total: number) => {
    const width = 30;
    const filled = total ? Math.round((done / total) * width) : width;
    process.stderr.write(`\r${label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total}`);
    if (done >= total) process.stderr.write('\n');
  };
}

let parsed: ReturnType<
  typeof parseArgs<{
    options: { uploads: { type: 'string' }; 'dry-run': { type: 'boolean' }; help: { type: 'boolean'; short: 'h' } };
    allowPositionals: true;
  }>
>;
try {
  parsed = parseArgs({
    options: { uploads: { type: 'string' }, 'dry-run': { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
    allowPositionals: true,
  });
} catch (error) {
  console.error(`${(error as Error).message}\n${usage}`);
  process.exit(2);
}
if (parsed.values.help) {
  console.log(usage);
  process.exit(0);
}
if (parsed.positionals.length !== 1) {
  console.error(usage);
  process.exit(2);
}
const [file] = parsed.positionals as [string];
const uploads = parsed.values.uploads;
const dryRun = parsed.values['dry-run'] === true;
const uploadsStat = uploads === undefined ? undefined : fs.statSync(uploads, { throwIfNoEntry: false });
if (uploads !== undefined && !uploadsStat?.isDirectory() && !(uploadsStat?.isFile() && isZipFile(uploads))) {
  console.error(`--uploads ${uploads}: not a folder or a zip file.`);
  process.exit(2);
}

const given = fs.statSync(file, { throwIfNoEntry: false });
if (!given?.isFile() && !given?.isDirectory()) {
  console.error(`${file}: no such file or folder.`);
  process.exit(2);
}

/** An export archive of this site: read and checked whole, then written into the empty site in one transaction. */
async function importArchive(config: ReturnType<typeof loadConfig>): Promise<void> {
  const archive = await readSiteArchive(file);
  try {
    const { db } = openDatabase(config.databasePath);
    try {
      await migrateToLatest(db);
      const summary = await restoreSiteArchive({ db, uploadsDir: config.uploadsDir }, archive, { dryRun });
      if (!dryRun) dropStoredPages(config.pageStoreDir, findRunningPids(config.pageStoreDir).length);
      const rows = Object.entries(summary.tables)
        .filter(([, count]) => count > 0)
        .map(([table, count]) => `${count} ${table.replace(/_/g, ' ')}`)
        .join(', ');
      console.log(`${dryRun ? 'Dry run, nothing written. Would restore' : 'Restored'} from the export archive:`);
      console.log(
        `  ${rows || 'no content'}; ${summary.files} uploaded files${dryRun ? '' : `; ${summary.indexed} articles indexed for search`}`,
      );
    } finally {
      await db.destroy();
    }
  } finally {
    archive.dispose();
  }
}

try {
  const config = loadConfig();
  if (given.isFile() && looksLikeArchive(file)) {
    if (uploads !== undefined)
      throw new AppError('invalid_input', 'An export archive carries its own uploads: leave out --uploads.');
    await importArchive(config);
    process.exit(0);
  }
  const site = await readImportFile(file, progress('Reading '));
  // Opened (and a zip checked whole) before the database is touched: a refused zip writes nothing.
  // A Markdown folder holds its own images.
  const files = uploads
    ? uploadsStat!.isDirectory()
      ? folderSource(uploads)
      : zipSource(uploads)
    : given.isDirectory()
      ? folderSource(file)
      : null;
  const { db } = openDatabase(config.databasePath);
  try {
    await migrateToLatest(db);
    const { report, tags } = await runImport({ db, uploadsDir: config.uploadsDir, revisionsKeep: config.revisionsKeep }, site, {
      dryRun,
      files,
      saver: { id: null, username: 'npm run import' },
      onProgress: progress('Importing'),
    });
    if (!dryRun && tags.length > 0) {
      // The running server (if any) sees the new store generation and renders pages again as they are asked for.
      dropStoredPages(config.pageStoreDir, findRunningPids(config.pageStoreDir).length);
    }
    console.log(formatReport(report));
    if (report.failed.length > 0) process.exitCode = 1;
  } finally {
    await db.destroy();
  }
} catch (error) {
  if (error instanceof AppError || error instanceof ConfigError) {
    console.error(`Import refused: ${error.message} Nothing was written.`);
    process.exit(1);
  }
  throw error;
}
