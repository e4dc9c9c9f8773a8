import fs from 'node:fs/promises';
import type { Db } from '../db/client.ts';
import { deleteUploadsByPaths, insertUploads } from '../db/repositories/uploads.ts';
import { AppError } from '../errors.ts';
import { loadSharp } from './sharp.ts';
import { absoluteUploadPath, createUploadId, removeQuietly, writeFilesAtomically } from './files.ts';

/**
 * The site icon in the sizes browsers and phones ask for: 32 px for the tab, 180 px for the
 * iPhone home screen (apple-touch-icon), 192 and 512 px for the web manifest (Android, installed
 * apps). Made from an image already uploaded (so already checked and re-encoded by images.ts),
 * squared on a transparent background, as PNG (apple-touch-icon must be PNG).
 */
export const ICON_SIZES = [32, 180, 192, 512] as const;
export type IconSize = (typeof ICON_SIZES)[number];

const UPLOADED_IMAGE = /^\/uploads\/(images\/[a-z0-9]+-w\d+\.webp)$/;

/** The address of one size of an icon set stored under `base` (`/uploads/icons/<id>`). */
export function iconUrl(base: string, size: IconSize): string {
  return `${base}-${size}.png`;
}

function iconPaths(base: string): string[] {
  return ICON_SIZES.map((size) => iconUrl(base, size).replace(/^\/uploads\//, ''));
}

/** Makes and records the icon set of an uploaded image; answers its base address. */
export async function storeSiteIcons(db: Db, uploadsDir: string, imageUrl: string): Promise<string> {
  const match = UPLOADED_IMAGE.exec(imageUrl);
  if (!match) throw new AppError('invalid_input', 'Site icon must be an image uploaded to this site.', { fields: { favicon: 'Site icon must be an image uploaded to this site.' } });
  let source: Buffer;
  try {
    source = await fs.readFile(absoluteUploadPath(uploadsDir, match[1]!));
  } catch {
    throw new AppError('invalid_input', 'The uploaded site icon was not found. Upload it again.', {
      fields: { favicon: 'The uploaded site icon was not found. Upload it again.' },
    });
  }
  const base = `/uploads/icons/${createUploadId()}`;
  const sharp = await loadSharp();
  const files = await Promise.all(
    ICON_SIZES.map(async (size) => ({
      relativePath: iconUrl(base, size).replace(/^\/uploads\//, ''),
      data: await sharp(source)
        .resize({ width: size, height: size, fit: 'contain', background: { r: 0, g: 0, b: 0, alpha: 0 } })
        .png({ compressionLevel: 9 })
        .toBuffer(),
    })),
  );
  await writeFilesAtomically(uploadsDir, files);
  try {
    await insertUploads(
      db,
      files.map((f) => ({ kind: 'image', path: f.relativePath, originalName: 'icon.png', mime: 'image/png', size: f.data.length })),
    );
  } catch (error) {
    await removeQuietly(files.map((f) => absoluteUploadPath(uploadsDir, f.relativePath)));
    throw error;
  }
  return base;
}

/** Removes an icon set the settings no longer name (after the change committed). */
export async function removeSiteIcons(db: Db, uploadsDir: string, base: string): Promise<void> {
  if (!/^\/uploads\/icons\/[a-z0-9]+$/.test(base)) return;
  const paths = iconPaths(base);
  try {
    await deleteUploadsByPaths(db, paths);
    await removeQuietly(paths.map((p) => absoluteUploadPath(uploadsDir, p)));
  } catch (error) {
    console.error('[uploads] icon cleanup failed:', error);
  }
}
