import type { Metadata, SharpOptions } from 'sharp';
import { loadSharp } from './sharp.ts';
import type { Db } from '../db/client.ts';
import { insertUploads } from '../db/repositories/uploads.ts';
import { AppError } from '../errors.ts';
import { IMAGE_WIDTHS, srcsetFor, uploadedImageUrl } from '../../shared/images.ts';
import { IMAGE_MAX_BYTES, UPLOAD_MESSAGES } from '../../shared/validation/uploads.ts';
import { absoluteUploadPath, cleanOriginalName, createUploadId, removeQuietly, writeFilesAtomically, type PendingFile } from './files.ts';

/**
 * Images are judged by their bytes, never by name or declared type, and are always re-encoded:
 * sharp decodes the picture and writes fresh WebP files, so EXIF, GPS data and anything appended
 * to the file (HTML after a JPEG, for example) never reach the disk (docs/product.md#validation-rules).
 */

type ImageFormat = 'jpeg' | 'png' | 'gif' | 'webp';

/** About 40 megapixels: a large camera photo; a "decompression bomb" header claims far more. */
export const MAX_INPUT_PIXELS = 40_000_000;
/** WebP cannot hold a side longer than this. */
const MAX_SIDE = 16_383;

/** Formats by signature. Only these reach sharp, so its other decoders (SVG, PDF, TIFF...) never run on uploads. */
export function detectImageFormat(bytes: Buffer): ImageFormat | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  const head = bytes.subarray(0, 12).toString('latin1');
  if (head.startsWith('GIF87a') || head.startsWith('GIF89a')) return 'gif';
  if (head.startsWith('RIFF') && head.slice(8, 12) === 'WEBP') return 'webp';
  return null;
}

export interface EncodedVariant {
  width: number;
  data: Buffer;
  outWidth: number;
  outHeight: number;
}

const unreadable = () => new AppError('unprocessable', UPLOAD_MESSAGES.imageUnreadable);

/** Checks and re-encodes an uploaded image into the WebP widths of IMAGE_WIDTHS. */
export async function encodeImageVariants(bytes: Buffer): Promise<EncodedVariant[]> {
  if (bytes.length > IMAGE_MAX_BYTES) throw new AppError('too_large', UPLOAD_MESSAGES.imageTooLarge);
  const format = detectImageFormat(bytes);
  if (!format) throw new AppError('unsupported_type', UPLOAD_MESSAGES.imageType);
  const mayAnimate = format === 'gif' || format === 'webp';
  const options: SharpOptions = { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error', animated: mayAnimate };

  const sharp = await loadSharp();
  let meta: Metadata;
  try {
    meta = await sharp(bytes, options).metadata();
  } catch {
    throw unreadable();
  }
  if (meta.format !== format || !meta.width || !meta.height) throw unreadable();
  const frameHeight = meta.pageHeight ?? meta.height;
  if (meta.width > MAX_SIDE || frameHeight > MAX_SIDE || meta.width * meta.height > MAX_INPUT_PIXELS) throw unreadable();

  const animated = mayAnimate && (meta.pages ?? 1) > 1;
  try {
    // rotate() first applies the EXIF orientation; the encoder then writes no metadata at all.
    const base = sharp(bytes, { ...options, animated }).rotate();
    return await Promise.all(
      IMAGE_WIDTHS.map(async (width) => {
        const { data, info } = await base
          .clone()
          .resize({ width, withoutEnlargement: true })
          .webp({ quality: 80, effort: 4 })
          .toBuffer({ resolveWithObject: true });
        const pages = animated ? (meta.pages ?? 1) : 1;
        return { width, data, outWidth: info.width, outHeight: Math.round(info.height / pages) };
      }),
    );
  } catch {
    throw unreadable();
  }
}

export interface StoredImage {
  url: string;
  srcset: string;
  width: number;
  height: number;
  /** Relative paths of every stored file, for cleanup if the caller's own write fails. */
  files: string[];
}

/**
 * Re-encodes and stores an image under UPLOADS_DIR/images and records its files. The answered
 * url is the widest variant; pages derive the others from it (src/shared/images.ts).
 */
export async function storeImageUpload(db: Db, uploadsDir: string, bytes: Buffer, originalName: string): Promise<StoredImage> {
  const variants = await encodeImageVariants(bytes);
  const id = createUploadId();
  const pending: PendingFile[] = variants.map((v) => ({ relativePath: relativeImagePath(id, v.width), data: v.data }));
  await writeFilesAtomically(uploadsDir, pending);
  const files = pending.map((p) => p.relativePath);
  try {
    const name = cleanOriginalName(originalName.replace(/\.[^./\\]*$/, ''), '.webp', 'image.webp');
    await insertUploads(
      db,
      pending.map((p) => ({ kind: 'image', path: p.relativePath, originalName: name, mime: 'image/webp', size: p.data.length })),
    );
  } catch (error) {
    await removeStoredFiles(uploadsDir, files);
    throw error;
  }
  const widest = variants[variants.length - 1]!;
  const url = uploadedImageUrl(id, widest.width);
  return { url, srcset: srcsetFor(url) ?? '', width: widest.outWidth, height: widest.outHeight, files };
}

export function relativeImagePath(id: string, width: number): string {
  return uploadedImageUrl(id, width).replace(/^\/uploads\//, '');
}

export function removeStoredFiles(uploadsDir: string, relativePaths: string[]): Promise<void> {
  return removeQuietly(relativePaths.map((p) => absoluteUploadPath(uploadsDir, p)));
}
