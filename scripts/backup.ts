// `npm run backup [-- --out DIR]`: a consistent backup of the database and the uploads while the
// site keeps serving, into DIR/backup-<time>/ (default backups/). See README "Backups".
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig, ConfigError } from '../src/server/config.ts';
import { createBackup } from '../src/server/ops/backup.ts';
import { BackupError } from '../src/server/ops/manifest.ts';

try {
  const { values } = parseArgs({ options: { out: { type: 'string', default: 'backups' } } });
  const config = loadConfig();
  const result = await createBackup({
    databasePath: config.databasePath,
    uploadsDir: config.uploadsDir,
    outDir: path.resolve(values.out),
  });
  const { manifest } = result;
  console.log(`Backup written to ${result.dir}`);
  console.log(
    `  database ${(manifest.database.size / 1024).toFixed(0)} KiB (migrations ${manifest.migrations.join(', ') || 'none'}), ` +
      `${manifest.uploads.length} uploaded files, ${(result.bytes / 1024 / 1024).toFixed(1)} MiB in ${result.seconds.toFixed(1)} s`,
  );
  if (manifest.missing_uploads.length) {
    console.warn(
      `  Note: ${manifest.missing_uploads.length} files the database lists were removed before they could be copied: ${manifest.missing_uploads.join(', ')}`,
    );
  }
} catch (error) {
  if (
    error instanceof BackupError ||
    error instanceof ConfigError ||
    (error as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION'
  ) {
    console.error(`Backup failed: ${(error as Error).message}`);
    process.exit(1);
  }
  throw error;
}
