import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * The description every backup folder carries (manifest.json): what it holds, byte for byte, so a
 * restore can refuse a backup that was cut short, damaged or altered.
 */
export const MANIFEST_FILE = 'manifest.json';
export const DATABASE_FILE = 'site.sqlite';
export const UPLOADS_FOLDER = 'uploads';

export interface ManifestFile {
  /** Relative to the backup folder, forward slashes. */
  path: string;
  size: number;
  sha256: string;
}

export interface BackupManifest {
  format: 'study-site-backup';
  version: 1;
  created_at: string;
  /** Migrations applied to the backed-up database, in order. */
  migrations: string[];
  database: ManifestFile;
  uploads: ManifestFile[];
  /** Files the database lists in `uploads` that were gone by the time the uploads were copied. */
  missing_uploads: string[];
}

export class BackupError extends Error {}

export function hashFile(file: string): string {
  const hash = crypto.createHash('sha256');
  const fd = fs.openSync(file, 'r');
  try {
    const buffer = Buffer.allocUnsafe(1 << 20);
    for (;;) {
      const read = fs.readSync(fd, buffer, 0, buffer.length, null);
      if (read === 0) break;
      hash.update(buffer.subarray(0, read));
    }
  } finally {
    fs.closeSync(fd);
  }
  return hash.digest('hex');
}

export function describeFile(root: string, relative: string): ManifestFile {
  const full = path.join(root, ...relative.split('/'));
  return { path: relative, size: fs.statSync(full).size, sha256: hashFile(full) };
}

/** Flushes a file or folder to disk, so a backup or restore that reported success survives a power cut. */
export function syncPath(target: string): void {
  const fd = fs.openSync(target, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** Every regular file under `dir`, relative with forward slashes; dot-named files are unfinished uploads. */
export function listFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  const found: string[] = [];
  const walk = (relative: string) => {
    for (const entry of fs.readdirSync(path.join(dir, relative), { withFileTypes: true })) {
      if (entry.name.startsWith('.')) continue;
      const child = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(child);
      else if (entry.isFile()) found.push(child);
    }
  };
  walk('');
  return found.sort();
}

/** A relative path that stays inside its folder: no absolute paths, no `..`, no empty parts. */
function isSafeRelative(relative: string): boolean {
  if (relative === '' || relative.startsWith('/') || relative.includes('\\') || relative.includes('\0')) return false;
  return relative.split('/').every((part) => part !== '' && part !== '.' && part !== '..');
}

function isManifestFile(value: unknown): value is ManifestFile {
  const file = value as ManifestFile;
  return (
    typeof file === 'object' &&
    file !== null &&
    typeof file.path === 'string' &&
    isSafeRelative(file.path) &&
    Number.isSafeInteger(file.size) &&
    file.size >= 0 &&
    typeof file.sha256 === 'string' &&
    /^[0-9a-f]{64}$/.test(file.sha256)
  );
}

/** Reads and checks the manifest's shape; throws BackupError naming what is wrong. */
export function readManifest(backupDir: string): BackupManifest {
  const file = path.join(backupDir, MANIFEST_FILE);
  if (!fs.existsSync(file)) throw new BackupError(`${backupDir} is not a backup: it has no ${MANIFEST_FILE}`);
  let parsed: BackupManifest;
  try {
    parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as BackupManifest;
  } catch (error) {
    throw new BackupError(`${file} is not valid JSON: ${(error as Error).message}`);
  }
  if (parsed?.format !== 'study-site-backup' || parsed.version !== 1)
    throw new BackupError(`${file} is not a version 1 study-site backup manifest`);
  if (!isManifestFile(parsed.database) || parsed.database.path !== DATABASE_FILE)
    throw new BackupError(`${file}: the database entry is missing or malformed`);
  if (
    !Array.isArray(parsed.uploads) ||
    !parsed.uploads.every((entry) => isManifestFile(entry) && entry.path.startsWith(`${UPLOADS_FOLDER}/`))
  ) {
    throw new BackupError(`${file}: the uploads list is malformed`);
  }
  if (!Array.isArray(parsed.migrations) || !parsed.migrations.every((name) => typeof name === 'string')) {
    throw new BackupError(`${file}: the migrations list is malformed`);
  }
  return parsed;
}

/** Checks every listed file's size and SHA-256 against the manifest; throws on the first mismatch. */
export function verifyFiles(backupDir: string, manifest: BackupManifest): void {
  for (const entry of [manifest.database, ...manifest.uploads]) {
    const full = path.join(backupDir, ...entry.path.split('/'));
    if (!fs.existsSync(full)) throw new BackupError(`The backup is incomplete: ${entry.path} is missing`);
    const size = fs.statSync(full).size;
    if (size !== entry.size)
      throw new BackupError(`${entry.path} is ${size} bytes, the manifest says ${entry.size}: the backup is damaged`);
    if (hashFile(full) !== entry.sha256)
      throw new BackupError(`${entry.path} does not match its SHA-256 in the manifest: the backup is damaged`);
  }
}
