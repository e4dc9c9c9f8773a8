import { json } from '../../../server/api/respond.ts';
import { route } from '../../../server/api/route.ts';
import { BODY_LIMITS } from '../../../server/api/body-limits.ts';
import { readFormFile, readMultipartForm } from '../../../server/api/multipart.ts';
import { requireAdmin } from '../../../server/auth/guard.ts';
import { invalidInput } from '../../../server/errors.ts';
import { storePdfUpload } from '../../../server/uploads/pdfs.ts';
import { UPLOAD_MESSAGES } from '../../../shared/validation/uploads.ts';

/**
 * POST /api/blogs/upload-pdf-local (admin), multipart field `pdfFile`: 201 {link}; 413 over 20MB,
 * 415 when the bytes are not a PDF. The original file name is kept for the download.
 */
export const { POST, ALL } = route({
  POST: async (context) => {
    requireAdmin(context);
    const form = await readMultipartForm(context.request, BODY_LIMITS.pdf, UPLOAD_MESSAGES.pdfTooLarge);
    const file = await readFormFile(form, 'pdfFile');
    if (!file) throw invalidInput(UPLOAD_MESSAGES.pdfMissing, { pdfFile: UPLOAD_MESSAGES.pdfMissing });
    const { app } = context.locals;
    const { link } = await storePdfUpload(app.db, app.config.uploadsDir, file.bytes, file.name);
    return json({ link }, 201);
  },
});
