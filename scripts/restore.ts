// `npm run restore -- DIR [--check]`: checks a backup made by `npm run backup` and brings it back
// (the server must be stopped). With --check it only verifies the backup. See README "Backups".
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig, ConfigError } from '../src/server/config.ts';
import { checkBackup, restoreBackup } from '../src/server/ops/restore.ts';
import { BackupError } from '../src/server/ops/manifest.ts';

try {
  const { values, positionals } = parseArgs({ options: { check: { type: 'boolean', default: false } }, allowPositionals: true });
  if (positionals.length !== 1)
    throw new BackupError('Name one backup folder: npm run restore -- backups/backup-<time> [--check]');
  const backupDir = path.resolve(positionals[0]!);
  if (values.check) {
    const manifest = checkBackup(backupDir);
    console.log(
      `${backupDir} is whole: database and ${manifest.uploads.length} uploaded files match the manifest of ${manifest.created_at}`,
    );
  } else {
    const config = loadConfig();
    const result = restoreBackup({
      backupDir,
      databasePath: config.databasePath,
      uploadsDir: config.uploadsDir,
      pageStoreDir: config.pageStoreDir,
    });
    console.log(`Restored the backup of ${result.manifest.created_at} into ${config.databasePath} and ${config.uploadsDir}`);
    console.log(
      `  ${result.manifest.uploads.length} uploaded files; the page store was emptied and fills again when the server starts`,
    );
    if (result.previousDatabase) console.log(`  The replaced database was kept as ${result.previousDatabase}`);
    if (result.previousUploads) console.log(`  The replaced uploads were moved to ${result.previousUploads}`);
    if (result.uploadsMerged)
      console.log(
        "  The uploads folder could not be swapped whole: the backup's files were copied into it, newer files were left",
      );
  }
} catch (error) {
  if (
    error instanceof BackupError ||
    error instanceof ConfigError ||
    (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')
  ) {
    console.error(`Restore failed: ${(error as Error).message}`);
    process.exit(1);
  }
  throw error;
}
