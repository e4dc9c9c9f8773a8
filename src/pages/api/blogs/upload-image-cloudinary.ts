import { json } from '../../../server/api/respond.ts';
import { route } from '../../../server/api/route.ts';
import { BODY_LIMITS } from '../../../server/api/body-limits.ts';
import { readFormFile, readMultipartForm } from '../../../server/api/multipart.ts';
import { requireAdmin } from '../../../server/auth/guard.ts';
import { invalidInput } from '../../../server/errors.ts';
import { storeImageUpload } from '../../../server/uploads/images.ts';
import { UPLOAD_MESSAGES } from '../../../shared/validation/uploads.ts';

/**
 * POST /api/blogs/upload-image-cloudinary (admin), multipart field `image`: the featured image and
 * the editor's images. The name is the original API's; files are stored locally, re-encoded to
 * WebP in three widths. 201 {url, srcset, width, height}; 413 over 5MB, 415 not an image, 422
 * unreadable or too many pixels.
 */
export const { POST, ALL } = route({
  POST: async (context) => {
    requireAdmin(context);
    const form = await readMultipartForm(context.request, BODY_LIMITS.image, UPLOAD_MESSAGES.imageTooLarge);
    const file = await readFormFile(form, 'image');
    if (!file) throw invalidInput(UPLOAD_MESSAGES.imageMissing, { image: UPLOAD_MESSAGES.imageMissing });
    const { app } = context.locals;
    const { url, srcset, width, height } = await storeImageUpload(app.db, app.config.uploadsDir, file.bytes, file.name);
    return json({ url, srcset, width, height }, 201);
  },
});
