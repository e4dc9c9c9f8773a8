import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { isDiskFull, storageFull } from '../errors.ts';

/** Random, unguessable, lowercase names (the image URL convention of src/shared/images.ts needs [a-z0-9]). */
export function createUploadId(): string {
  return crypto.randomBytes(12).toString('hex');
}

export interface PendingFile {
  /** Relative to the uploads folder, forward slashes, e.g. `images/<id>-w480.webp`. */
  relativePath: string;
  data: Buffer;
}

export function absoluteUploadPath(uploadsDir: string, relativePath: string): string {
  const full = path.resolve(uploadsDir, ...relativePath.split('/'));
  if (!full.startsWith(path.resolve(uploadsDir) + path.sep)) throw new Error(`Upload path escapes the uploads folder: ${relativePath}`);
  return full;
}

/**
 * Writes every file or none. Each goes to a dot-named temp file beside its final name first (the
 * file server never serves dot names), is flushed, then renamed into place, so a reader sees either
 * nothing or the whole file. On any failure every temp file and every file already renamed is
 * removed again. A full disk (or quota) becomes the catalogue's 507 `storage_full`.
 */
export async function writeFilesAtomically(uploadsDir: string, files: PendingFile[]): Promise<void> {
  const temps: string[] = [];
  const placed: string[] = [];
  try {
    const targets = files.map((file) => absoluteUploadPath(uploadsDir, file.relativePath));
    for (const [i, file] of files.entries()) {
      const target = targets[i]!;
      await fs.mkdir(path.dirname(target), { recursive: true });
      const temp = path.join(path.dirname(target), `.tmp-${crypto.randomBytes(6).toString('hex')}-${path.basename(target)}`);
      temps.push(temp);
      const handle = await fs.open(temp, 'wx', 0o644);
      try {
        await handle.writeFile(file.data);
        await handle.sync();
      } finally {
        await handle.close();
      }
    }
    for (const [i, temp] of temps.entries()) {
      await fs.rename(temp, targets[i]!);
      placed.push(targets[i]!);
    }
  } catch (error) {
    await removeQuietly([...temps, ...placed]);
    throw isDiskFull(error) ? storageFull() : error;
  }
}

/** Removes files, ignoring ones already gone; other failures are logged, not thrown. */
export async function removeQuietly(files: string[]): Promise<void> {
  await Promise.all(
    files.map(async (file) => {
      try {
        await fs.unlink(file);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') console.error(`[uploads] could not remove ${file}:`, error);
      }
    }),
  );
}

/**
 * A download name that is safe in a header and on any file system: the last path segment only,
 * no control or format characters, no quotes or separators, at most 100 characters, and the
 * expected extension.
 */
export function cleanOriginalName(name: string | null | undefined, extension: string, fallback: string): string {
  const base = (name ?? '').split(/[/\\]/).pop() ?? '';
  let clean = base
    .normalize('NFC')
    .replace(/[\p{Cc}\p{Cf}]/gu, '')
    .replace(/["*:<>?|;,]/g, '_')
    .replace(/\s+/g, ' ')
    .replace(/^[\s.]+|[\s.]+$/g, '');
  const ext = extension.toLowerCase();
  if (clean.toLowerCase().endsWith(ext)) clean = clean.slice(0, -ext.length).replace(/[\s.]+$/, '');
  const stem = Array.from(clean).slice(0, 100 - ext.length).join('');
  return stem === '' ? fallback : `${stem}${ext}`;
}
