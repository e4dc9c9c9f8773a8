import type { APIContext } from 'astro';
import { apiRoute, json, methodNotAllowed } from '../../../server/api/respond.ts';
import { getSlides } from '../../../server/content/reader.ts';
import { requireAdmin } from '../../../server/auth/guard.ts';
import { addSlide } from '../../../server/content/carousel-admin.ts';
import { readFormFile, readFormText, readMultipartForm } from '../../../server/api/multipart.ts';
import { IMAGE_MAX_BYTES, UPLOAD_MESSAGES } from '../../../shared/validation/uploads.ts';

/** GET /api/carousel: every slide as `{id, title, image_url, altText}`. */
export const GET = apiRoute(async (context) => json(await getSlides(context.locals.app.db)));

/**
 * POST /api/carousel (admin), multipart `title` and `image`: the image is checked and re-encoded
 * like every upload. 201 {message, slide, live_ms}.
 */
export const POST = apiRoute(async (context) => {
  requireAdmin(context);
  const form = await readMultipartForm(context.request, IMAGE_MAX_BYTES, UPLOAD_MESSAGES.imageTooLarge);
  const input = { title: readFormText(form, 'title'), image: await readFormFile(form, 'image') };
  return json(await addSlide(context.locals.app, input), 201);
});

// Methods without their own export land here: HEAD mirrors GET, anything else is a JSON 405.
export const ALL = apiRoute((context: APIContext) =>
  context.request.method === 'HEAD' ? GET(context) : methodNotAllowed(['GET', 'HEAD', 'POST']),
);
