import { apiRoute, json, methodNotAllowed } from '../../../server/api/respond.ts';
import { requireAdmin } from '../../../server/auth/guard.ts';
import { invalidInput } from '../../../server/errors.ts';
import { readFormFile, readMultipartForm } from '../../../server/api/multipart.ts';
import { storeImageUpload } from '../../../server/uploads/images.ts';
import { IMAGE_MAX_BYTES, UPLOAD_MESSAGES } from '../../../shared/validation/uploads.ts';

/**
 * POST /api/blogs/upload-image-cloudinary (admin), multipart field `image`: the featured image and
 * the editor's images. The name is the original API's; files are stored locally, re-encoded to
 * WebP in three widths. 201 {url, srcset, width, height}; 413 over 5MB, 415 not an image, 422
 * unreadable or too many pixels.
 */
export const POST = apiRoute(async (context) => {
  requireAdmin(context);
  const form = await readMultipartForm(context.request, IMAGE_MAX_BYTES, UPLOAD_MESSAGES.imageTooLarge);
  const file = await readFormFile(form, 'image');
  if (!file) throw invalidInput(UPLOAD_MESSAGES.imageMissing, { image: UPLOAD_MESSAGES.imageMissing });
  const { app } = context.locals;
  const stored = await storeImageUpload(app.db, app.config.uploadsDir, file.bytes, file.name);
  return json({ url: stored.url, srcset: stored.srcset, width: stored.width, height: stored.height }, 201);
});

export const ALL = apiRoute(() => methodNotAllowed(['POST']));
