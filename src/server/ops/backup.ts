import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { readMigrationNames, readUploadPaths } from '../db/repositories/database-file.ts';
import {
  BackupError,
  DATABASE_FILE,
  MANIFEST_FILE,
  UPLOADS_FOLDER,
  describeFile,
  listFiles,
  syncPath,
  type BackupManifest,
} from './manifest.ts';

export interface BackupOptions {
  databasePath: string;
  uploadsDir: string;
  /** The folder the timestamped backup folder is made in. */
  outDir: string;
  now?: Date;
}

export interface BackupResult {
  dir: string;
  manifest: BackupManifest;
  bytes: number;
  seconds: number;
}

function folderName(now: Date): string {
  return `backup-${now.toISOString().replace(/[-:]/g, '').replace('.', '-')}`;
}

/**
 * Copies the live database with SQLite's online backup, in one step: the copy reads one snapshot
 * (in WAL mode a reader never blocks the server's writers) and cannot be restarted by a write
 * landing in the middle, as a page-by-page copy would be.
 */
async function copyDatabase(source: string, target: string): Promise<void> {
  const db = new SQLite(source, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 10000');
    await db.backup(target, { progress: () => 0x7fffffff });
  } finally {
    db.close();
  }
}

/** Checks the copy and makes it one self-contained file (rollback journal; the server turns WAL back on). */
function checkCopy(file: string): { migrations: string[]; uploadPaths: string[] } {
  const db = new SQLite(file, { fileMustExist: true });
  try {
    db.pragma('journal_mode = DELETE');
    const check = db.pragma('integrity_check', { simple: true });
    if (check !== 'ok') throw new BackupError(`The database copy failed its integrity check: ${String(check)}`);
    return { migrations: readMigrationNames(db), uploadPaths: readUploadPaths(db) };
  } finally {
    db.close();
  }
}

/**
 * A consistent backup while the site serves: the database first, then the uploads. Uploaded
 * files are written before the database names them and are never rewritten (their names are
 * random), so every file the database copy refers to is already on disk when the copy of the
 * folder starts. The backup is assembled in a dot-named folder and renamed when complete, so a
 * folder named backup-* is always whole.
 */
export async function createBackup(options: BackupOptions): Promise<BackupResult> {
  const started = performance.now();
  if (!fs.existsSync(options.databasePath)) throw new BackupError(`No database at ${options.databasePath}`);
  fs.mkdirSync(options.outDir, { recursive: true });
  const now = options.now ?? new Date();
  const name = folderName(now);
  let finalDir = path.join(options.outDir, name);
  for (let n = 2; fs.existsSync(finalDir); n++) finalDir = path.join(options.outDir, `${name}-${n}`);
  const workDir = path.join(options.outDir, `.partial-${path.basename(finalDir)}`);
  fs.rmSync(workDir, { recursive: true, force: true });
  fs.mkdirSync(workDir);
  try {
    const databaseCopy = path.join(workDir, DATABASE_FILE);
    await copyDatabase(options.databasePath, databaseCopy);
    const { migrations, uploadPaths } = checkCopy(databaseCopy);

    const uploads = listFiles(options.uploadsDir);
    for (const relative of uploads) {
      const target = path.join(workDir, UPLOADS_FOLDER, ...relative.split('/'));
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.copyFileSync(path.join(options.uploadsDir, ...relative.split('/')), target);
      syncPath(target);
    }
    syncPath(databaseCopy);

    const copied = new Set(uploads);
    const manifest: BackupManifest = {
      format: 'study-site-backup',
      version: 1,
      created_at: now.toISOString(),
      migrations,
      database: describeFile(workDir, DATABASE_FILE),
      uploads: uploads.map((relative) => describeFile(workDir, `${UPLOADS_FOLDER}/${relative}`)),
      // An article deleted between the two copies may have had its files cleaned up meanwhile.
      missing_uploads: uploadPaths.filter((relative) => !copied.has(relative)).sort(),
    };
    const manifestFile = path.join(workDir, MANIFEST_FILE);
    fs.writeFileSync(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`);
    syncPath(manifestFile);
    fs.renameSync(workDir, finalDir);
    syncPath(options.outDir);
    const bytes = manifest.database.size + manifest.uploads.reduce((sum, file) => sum + file.size, 0);
    return { dir: finalDir, manifest, bytes, seconds: (performance.now() - started) / 1000 };
  } catch (error) {
    fs.rmSync(workDir, { recursive: true, force: true });
    throw error;
  }
}
