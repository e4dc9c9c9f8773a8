import type { AppContext } from '../context.ts';
import { deleteSlide, findSlide, insertSlide, type Slide } from '../db/repositories/carousel.ts';
import { deleteUploadsByPaths } from '../db/repositories/uploads.ts';
import { invalidInput, notFound } from '../errors.ts';
import { tag } from '../page-store/site-tags.ts';
import { removeUnreferencedUploads } from '../uploads/cleanup.ts';
import { removeStoredFiles, storeImageUpload } from '../uploads/images.ts';
import type { UploadedFile } from '../api/multipart.ts';
import { CAROUSEL_MESSAGES, validateCarouselTitle } from '../../shared/validation/carousel.ts';
import { UPLOAD_MESSAGES } from '../../shared/validation/uploads.ts';

/** Home carousel slides: the image goes through the same checks and re-encoding as every upload. */

export interface AddSlideInput {
  title: string;
  image: UploadedFile | null;
}

export async function addSlide(
  app: AppContext,
  input: AddSlideInput,
): Promise<{ message: string; slide: Slide; live_ms: number }> {
  const startedAt = performance.now();
  const fields: Record<string, string> = {};
  const titleError = validateCarouselTitle(input.title);
  if (titleError) fields.title = titleError;
  if (!input.image) fields.image = UPLOAD_MESSAGES.imageMissing;
  if (titleError || !input.image) throw invalidInput(Object.values(fields).join(' '), fields);

  const title = input.title.trim();
  const stored = await storeImageUpload(app.db, app.config.uploadsDir, input.image.bytes, input.image.name);
  let slide: Slide;
  try {
    slide = await insertSlide(app.db, { title, imageUrl: stored.url, altText: title });
  } catch (error) {
    await deleteUploadsByPaths(app.db, stored.files).catch(() => undefined);
    await removeStoredFiles(app.config.uploadsDir, stored.files);
    throw error;
  }
  const { live_ms } = await app.pageCache.invalidate([tag.carousel], startedAt);
  return { message: CAROUSEL_MESSAGES.added, slide, live_ms };
}

export async function removeSlide(app: AppContext, id: number): Promise<{ message: string; live_ms: number }> {
  const startedAt = performance.now();
  const slide = await findSlide(app.db, id);
  if (!slide || !(await deleteSlide(app.db, id))) throw notFound('That slide');
  const { live_ms } = await app.pageCache.invalidate([tag.carousel], startedAt);
  await removeUnreferencedUploads(app.db, app.config.uploadsDir, [slide.image_url]);
  return { message: CAROUSEL_MESSAGES.deleted, live_ms };
}
