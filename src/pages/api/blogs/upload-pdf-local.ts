import { apiRoute, json, methodNotAllowed } from '../../../server/api/respond.ts';
import { requireAdmin } from '../../../server/auth/guard.ts';
import { invalidInput } from '../../../server/errors.ts';
import { readFormFile, readMultipartForm } from '../../../server/api/multipart.ts';
import { storePdfUpload } from '../../../server/uploads/pdfs.ts';
import { PDF_MAX_BYTES, UPLOAD_MESSAGES } from '../../../shared/validation/uploads.ts';

/**
 * POST /api/blogs/upload-pdf-local (admin), multipart field `pdfFile`: 201 {link}; 413 over 20MB,
 * 415 when the bytes are not a PDF. The original file name is kept for the download.
 */
export const POST = apiRoute(async (context) => {
  requireAdmin(context);
  const form = await readMultipartForm(context.request, PDF_MAX_BYTES, UPLOAD_MESSAGES.pdfTooLarge);
  const file = await readFormFile(form, 'pdfFile');
  if (!file) throw invalidInput(UPLOAD_MESSAGES.pdfMissing, { pdfFile: UPLOAD_MESSAGES.pdfMissing });
  const { app } = context.locals;
  const { link } = await storePdfUpload(app.db, app.config.uploadsDir, file.bytes, file.name);
  return json({ link }, 201);
});

export const ALL = apiRoute(() => methodNotAllowed(['POST']));
