import type { Db } from '../db/client.ts';
import { insertUploads } from '../db/repositories/uploads.ts';
import { AppError } from '../errors.ts';
import { PDF_MAX_BYTES, UPLOAD_MESSAGES } from '../../shared/validation/uploads.ts';
import { absoluteUploadPath, cleanOriginalName, createUploadId, removeQuietly, writeFilesAtomically } from './files.ts';

/**
 * PDFs are kept byte for byte (re-writing them would break signatures and forms), so the check is
 * on the bytes: a PDF starts with `%PDF-`. They are served as attachments with their own type and
 * nosniff, and under the cleaned original name recorded here.
 */
export function looksLikePdf(bytes: Buffer): boolean {
  return bytes.subarray(0, 5).toString('latin1') === '%PDF-';
}

export async function storePdfUpload(db: Db, uploadsDir: string, bytes: Buffer, originalName: string): Promise<{ link: string; name: string }> {
  if (bytes.length > PDF_MAX_BYTES) throw new AppError('too_large', UPLOAD_MESSAGES.pdfTooLarge);
  if (!looksLikePdf(bytes)) throw new AppError('unsupported_type', UPLOAD_MESSAGES.pdfType);
  const relativePath = `pdfs/${createUploadId()}.pdf`;
  await writeFilesAtomically(uploadsDir, [{ relativePath, data: bytes }]);
  const name = cleanOriginalName(originalName, '.pdf', 'document.pdf');
  try {
    await insertUploads(db, [{ kind: 'pdf', path: relativePath, originalName: name, mime: 'application/pdf', size: bytes.length }]);
  } catch (error) {
    await removeQuietly([absoluteUploadPath(uploadsDir, relativePath)]);
    throw error;
  }
  return { link: `/uploads/${relativePath}`, name };
}
