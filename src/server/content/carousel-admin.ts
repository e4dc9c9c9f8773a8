import type { AppContext } from '../context.ts';
import { deleteSlide, findSlide, insertSlide, type Slide } from '../db/repositories/carousel.ts';
import { deleteUploadsByPaths } from '../db/repositories/uploads.ts';
import { notFound, throwIfInvalid } from '../errors.ts';
import { tag } from '../page-store/site-tags.ts';
import { removeUnreferencedUploads } from '../uploads/cleanup.ts';
import { removeStoredFiles, storeImageUpload } from '../uploads/images.ts';
import type { UploadedFile } from '../api/multipart.ts';
import { CAROUSEL_MESSAGES, validateCarouselInput } from '../../shared/validation/carousel.ts';
import type { AddedSlide, DeletedAnswer } from '../../shared/api-types.ts';

/** Home carousel slides: the image goes through the same checks and re-encoding as every upload. */

export interface AddSlideInput {
  title: string;
  image: UploadedFile | null;
}

export async function addSlide(app: AppContext, input: AddSlideInput): Promise<AddedSlide> {
  const startedAt = performance.now();
  // The bytes decide the image's type below; here only that a file came.
  const picked = input.image && { name: input.image.name, type: '', size: input.image.size };
  const { title } = throwIfInvalid(validateCarouselInput({ title: input.title, image: picked }, { imageCheck: 'presence' }));
  const image = input.image!;
  const stored = await storeImageUpload(app.db, app.config.uploadsDir, image.bytes, image.name);
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

export async function removeSlide(app: AppContext, id: number): Promise<DeletedAnswer> {
  const startedAt = performance.now();
  const slide = await findSlide(app.db, id);
  if (!slide || !(await deleteSlide(app.db, id))) throw notFound('That slide');
  const { live_ms } = await app.pageCache.invalidate([tag.carousel], startedAt);
  await removeUnreferencedUploads(app.db, app.config.uploadsDir, [slide.image_url]);
  return { message: CAROUSEL_MESSAGES.deleted, live_ms };
}
