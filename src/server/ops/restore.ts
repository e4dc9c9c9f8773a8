import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { migrations as knownMigrations } from '../../../db/migrations/index.ts';
import { readMigrationNames } from '../db/repositories/database-file.ts';
import {
  BackupError,
  DATABASE_FILE,
  UPLOADS_FOLDER,
  hashFile,
  readManifest,
  syncPath,
  verifyFiles,
  type BackupManifest,
} from './manifest.ts';
import { findRunningPids } from '../page-store/crash-marker.ts';
import { dropStoredPages } from '../page-store/store-file.ts';

export interface RestoreOptions {
  backupDir: string;
  databasePath: string;
  uploadsDir: string;
  pageStoreDir: string;
  now?: Date;
}

export interface RestoreResult {
  manifest: BackupManifest;
  /** Where the database that was replaced was kept (a hard link or copy), if there was one. */
  previousDatabase: string | null;
  /** Where the uploads folder that was replaced was moved, if there was one. */
  previousUploads: string | null;
  /** True when the uploads folder could not be swapped whole (a mount point) and files were copied in. */
  uploadsMerged: boolean;
}

/**
 * Everything a restore checks before it touches anything: the manifest, every file's size and
 * SHA-256, the database copy's integrity, and that this code knows every migration it has had
 * (a backup from a newer version of the site is refused; an older one is migrated at start).
 */
export function checkBackup(backupDir: string): BackupManifest {
  const manifest = readManifest(backupDir);
  verifyFiles(backupDir, manifest);
  const db = new SQLite(path.join(backupDir, DATABASE_FILE), { readonly: true, fileMustExist: true });
  try {
    const check = db.pragma('integrity_check', { simple: true });
    if (check !== 'ok') throw new BackupError(`The backed-up database fails its integrity check: ${String(check)}`);
    const applied = readMigrationNames(db);
    if (applied.join(',') !== manifest.migrations.join(',')) {
      throw new BackupError(
        `The database's migrations (${applied.join(', ')}) differ from the manifest's (${manifest.migrations.join(', ')})`,
      );
    }
    const unknown = applied.filter((name) => !(name in knownMigrations));
    if (unknown.length)
      throw new BackupError(
        `The backup comes from a newer version of the site (migrations ${unknown.join(', ')}): update the site first`,
      );
  } finally {
    db.close();
  }
  return manifest;
}

const IN_USE = new Set(['SQLITE_BUSY', 'SQLITE_LOCKED', 'SQLITE_BUSY_RECOVERY', 'SQLITE_BUSY_SNAPSHOT']);

function serverRunning(detail: string): BackupError {
  return new BackupError(
    `The site is running on this database (${detail}). Stop the server first (e.g. systemctl stop study-site), then restore.`,
  );
}

/**
 * Proves no server has the database open, and folds its WAL into the file so the copy kept
 * aside is complete. A server holds a lock on its WAL index for as long as it runs, even idle,
 * so an exclusive lock is only granted when none is running.
 */
function lockOutServer(databasePath: string): void {
  let db: SQLite.Database;
  try {
    db = new SQLite(databasePath, { fileMustExist: true, timeout: 1000 });
  } catch (error) {
    throw new BackupError(`Cannot open the current database ${databasePath}: ${(error as Error).message}`);
  }
  try {
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('begin exclusive');
    db.exec('commit');
    db.pragma('wal_checkpoint(TRUNCATE)');
  } catch (error) {
    const code = (error as { code?: string }).code ?? '';
    if (IN_USE.has(code)) throw serverRunning(`${databasePath} is locked`);
    // A damaged database is a reason to restore, not a reason to refuse.
    if (code !== 'SQLITE_CORRUPT' && code !== 'SQLITE_NOTADB') throw error;
  } finally {
    db.close();
  }
}

function stampOf(now: Date): string {
  return now.toISOString().replace(/[-:]/g, '').replace('.', '-');
}

/** Keeps the file being replaced: a hard link costs nothing; a copy where links are not possible. */
function keepAside(file: string, aside: string): void {
  try {
    fs.linkSync(file, aside);
  } catch {
    fs.copyFileSync(file, aside);
  }
}

function stageUploads(backupDir: string, manifest: BackupManifest, staging: string): void {
  fs.rmSync(staging, { recursive: true, force: true });
  fs.mkdirSync(staging, { recursive: true });
  for (const entry of manifest.uploads) {
    const relative = entry.path.slice(UPLOADS_FOLDER.length + 1).split('/');
    const target = path.join(staging, ...relative);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.copyFileSync(path.join(backupDir, ...entry.path.split('/')), target);
    if (fs.statSync(target).size !== entry.size) throw new BackupError(`Copying ${entry.path} went wrong: sizes differ`);
    syncPath(target);
  }
}

/** Moves every file of `from` into `into`, replacing files of the same name (used when `into` cannot be renamed). */
function mergeInto(from: string, into: string): void {
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const target = path.join(into, entry.name);
    if (entry.isDirectory()) {
      fs.mkdirSync(target, { recursive: true });
      mergeInto(source, target);
    } else {
      fs.copyFileSync(source, target);
    }
  }
}

/**
 * Brings a backup back: checks it whole, refuses while a server runs on the database, stages the
 * database and the uploads beside their final places, then swaps both in (the database by an
 * atomic rename, with the old WAL and shared-memory files removed first so they can never be
 * replayed into the restored file). What was replaced is kept aside, and the page store, a cache
 * of pages rendered from the old data, is emptied.
 */
export function restoreBackup(options: RestoreOptions): RestoreResult {
  const manifest = checkBackup(options.backupDir);
  const running = findRunningPids(options.pageStoreDir);
  if (running.length) throw serverRunning(`process ${running.join(', ')} has the page store open`);
  const databaseExists = fs.existsSync(options.databasePath);
  if (databaseExists) lockOutServer(options.databasePath);

  const stamp = stampOf(options.now ?? new Date());
  const databaseDir = path.dirname(options.databasePath);
  fs.mkdirSync(databaseDir, { recursive: true });
  const stagedDatabase = `${options.databasePath}.restoring`;
  const stagedUploads = `${options.uploadsDir.replace(/[\\/]+$/, '')}.restoring`;
  try {
    fs.copyFileSync(path.join(options.backupDir, DATABASE_FILE), stagedDatabase);
    if (hashFile(stagedDatabase) !== manifest.database.sha256)
      throw new BackupError('Copying the database went wrong: its SHA-256 differs');
    syncPath(stagedDatabase);
    stageUploads(options.backupDir, manifest, stagedUploads);
  } catch (error) {
    fs.rmSync(stagedDatabase, { force: true });
    fs.rmSync(stagedUploads, { recursive: true, force: true });
    throw error;
  }

  // Both are staged; now the swaps, uploads first. The database rename is the moment the restore
  // takes effect: one stopped before it can simply be run again.
  let previousUploads: string | null = null;
  let uploadsMerged = false;
  if (!fs.existsSync(options.uploadsDir)) {
    fs.mkdirSync(path.dirname(options.uploadsDir), { recursive: true });
    fs.renameSync(stagedUploads, options.uploadsDir);
  } else {
    const aside = `${options.uploadsDir.replace(/[\\/]+$/, '')}.before-restore-${stamp}`;
    try {
      fs.renameSync(options.uploadsDir, aside);
      previousUploads = aside;
    } catch {
      // UPLOADS_DIR is a mount point or otherwise cannot move: copy the backup's files in.
      mergeInto(stagedUploads, options.uploadsDir);
      fs.rmSync(stagedUploads, { recursive: true, force: true });
      uploadsMerged = true;
    }
    if (previousUploads) {
      try {
        fs.renameSync(stagedUploads, options.uploadsDir);
      } catch (error) {
        fs.renameSync(previousUploads, options.uploadsDir);
        throw error;
      }
    }
  }

  let previousDatabase: string | null = null;
  if (databaseExists) {
    previousDatabase = `${options.databasePath}.before-restore-${stamp}`;
    keepAside(options.databasePath, previousDatabase);
  }
  for (const suffix of ['-wal', '-shm', '-journal']) fs.rmSync(options.databasePath + suffix, { force: true });
  fs.renameSync(stagedDatabase, options.databasePath);
  syncPath(databaseDir);

  dropStoredPages(options.pageStoreDir, 0);
  return { manifest, previousDatabase, previousUploads, uploadsMerged };
}
