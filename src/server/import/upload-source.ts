import fs from 'node:fs/promises';
import path from 'node:path';
import { IMPORT_LIMITS } from './limits.ts';

/**
 * Where an import finds the old site's uploaded files: a copy of its `wp-content/uploads`
 * folder given beside the export. Every path comes from the export file, so none is trusted: a
 * path with `..`, an absolute one, or one reaching outside the folder through a link is never
 * read.
 */

export interface UploadSource {
  /** The file's bytes; null when it is not there (reported, not fatal). */
  read(relativePath: string): Promise<Buffer | null>;
}

/** Where an old site keeps its uploaded files: WordPress under wp-content/uploads, Ghost under content/images. */
export const UPLOADS_FOLDER = /\/(?:wp-content\/uploads|content\/images)\//;
/** A file named by year and month at the end of an address (WordPress.com's files host, a media domain). */
export const DATED_FILE = /\/(\d{4}\/\d{2}\/[^/]+)$/;

/**
 * The path below the uploads folder an old address names: after `/wp-content/uploads/`, else the
 * `YYYY/MM/name` at its end (WordPress.com's files host), else its last segment. Null for an
 * address that is not a file or would leave the folder.
 */
export function relativeUploadPath(address: string): string | null {
  let pathname: string;
  try {
    pathname = new URL(address, 'http://old.invalid').pathname;
  } catch {
    return null;
  }
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  const marker = UPLOADS_FOLDER.exec(decoded);
  const dated = DATED_FILE.exec(decoded);
  const relative = marker ? decoded.slice(marker.index + marker[0].length) : dated ? dated[1]! : decoded.split('/').pop()!;
  return isSafeRelativePath(relative) ? relative : null;
}

/** A relative path of plain segments: no `..`, no `.`, no empty segment, no backslash or NUL. */
export function isSafeRelativePath(relative: string): boolean {
  if (relative === '' || relative.length > 1024 || /[\\\0]/.test(relative) || relative.startsWith('/')) return false;
  return relative.split('/').every((segment) => segment !== '' && segment !== '.' && segment !== '..');
}

export function folderSource(dir: string): UploadSource {
  const root = path.resolve(dir);
  let realRoot: Promise<string> | null = null;
  return {
    async read(relativePath) {
      if (!isSafeRelativePath(relativePath)) return null;
      const full = path.resolve(root, ...relativePath.split('/'));
      if (!full.startsWith(root + path.sep)) return null;
      try {
        realRoot ??= fs.realpath(root);
        const real = await fs.realpath(full);
        if (!real.startsWith((await realRoot) + path.sep)) return null;
        const stat = await fs.stat(real);
        if (!stat.isFile() || stat.size > IMPORT_LIMITS.uploadBytes) return null;
        return await fs.readFile(real);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
  };
}
