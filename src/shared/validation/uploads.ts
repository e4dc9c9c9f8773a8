/**
 * Upload limits and messages shared by the admin forms (checked before sending) and the upload
 * endpoints (checked again on the bytes: the browser's file type is only a hint).
 */

/** docs/product.md#limits-and-constants: carousel image maximum 5MB; the same limit applies to every image upload. */
export const IMAGE_MAX_BYTES = 5 * 1024 * 1024;
export const PDF_MAX_BYTES = 20 * 1024 * 1024;

export const IMAGE_MIME_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] as const;
export const IMAGE_ACCEPT = '.jpg,.jpeg,.png,.gif,.webp,image/jpeg,image/png,image/gif,image/webp';
export const PDF_ACCEPT = '.pdf,application/pdf';

export const UPLOAD_MESSAGES = {
  imageMissing: 'Please select an image file to upload.',
  imageType: 'Image must be a JPG, PNG, GIF or WEBP file.',
  imageTooLarge: 'Image must be at most 5MB.',
  imageUnreadable: 'The image could not be read. It may be damaged or too large in pixels.',
  pdfMissing: 'Please select a PDF file to upload.',
  pdfType: 'Only PDF files can be uploaded.',
  pdfTooLarge: 'PDF must be at most 20MB.',
} as const;

/** What the browser knows about a picked file (a File satisfies it). */
export interface PickedFile {
  name: string;
  type: string;
  size: number;
}

/** A first check in the form; the server decides on the bytes. Returns a message or null. */
export function checkPickedImage(file: PickedFile | null | undefined): string | null {
  if (!file) return UPLOAD_MESSAGES.imageMissing;
  const byName = /\.(jpe?g|png|gif|webp)$/i.test(file.name);
  const byType = (IMAGE_MIME_TYPES as readonly string[]).includes(file.type.toLowerCase());
  if (!byType && !(file.type === '' && byName)) return UPLOAD_MESSAGES.imageType;
  if (file.size > IMAGE_MAX_BYTES) return UPLOAD_MESSAGES.imageTooLarge;
  return null;
}

export function checkPickedPdf(file: PickedFile | null | undefined): string | null {
  if (!file) return UPLOAD_MESSAGES.pdfMissing;
  const byName = /\.pdf$/i.test(file.name);
  if (!byName || (file.type !== '' && file.type.toLowerCase() !== 'application/pdf')) return UPLOAD_MESSAGES.pdfType;
  if (file.size > PDF_MAX_BYTES) return UPLOAD_MESSAGES.pdfTooLarge;
  return null;
}
