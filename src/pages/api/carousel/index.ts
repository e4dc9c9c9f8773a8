import { json } from '../../../server/api/respond.ts';
import { route } from '../../../server/api/route.ts';
import { BODY_LIMITS } from '../../../server/api/body-limits.ts';
import { readFormFile, readFormText, readMultipartForm } from '../../../server/api/multipart.ts';
import { getSlides } from '../../../server/content/reader.ts';
import { requireAdmin } from '../../../server/auth/guard.ts';
import { addSlide } from '../../../server/content/carousel-admin.ts';
import { UPLOAD_MESSAGES } from '../../../shared/validation/uploads.ts';

export const { GET, POST, ALL } = route({
  /** GET /api/carousel: every slide as `{id, title, image_url, altText}`. */
  GET: async (context) => json(await getSlides(context.locals.app.db)),
  /**
   * POST /api/carousel (admin), multipart `title` and `image`: the image is checked and re-encoded
   * like every upload. 201 {message, slide, live_ms}.
   */
  POST: async (context) => {
    requireAdmin(context);
    const form = await readMultipartForm(context.request, BODY_LIMITS.image, UPLOAD_MESSAGES.imageTooLarge);
    const input = { title: readFormText(form, 'title'), image: await readFormFile(form, 'image') };
    return json(await addSlide(context.locals.app, input), 201);
  },
});
