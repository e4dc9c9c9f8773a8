import { readText, type FieldErrors, type ValidationResult } from './common.ts';
import { checkPickedImage, UPLOAD_MESSAGES, type PickedFile } from './uploads.ts';

/** Carousel add (docs/product.md#validation-rules): title and image required; JPG, PNG, GIF or WEBP up to 5MB. */

export const CAROUSEL_LIMITS = { title: 200 } as const;

export const CAROUSEL_MESSAGES = {
  titleRequired: 'Title is required.',
  titleTooLong: `Title must be at most ${CAROUSEL_LIMITS.title} characters.`,
  /** docs/product.md#messages. */
  fetchFailed: 'Failed to fetch slides. Please make sure the server is running.',
  deleted: 'Carousel Deleted Successfully !',
  added: 'Carousel item added successfully',
  confirmDelete: 'Are you sure you want to delete this slide?',
} as const;

export interface CarouselFormInput {
  title?: unknown;
  /** The picked file; the server passes what the multipart body carried (or null). */
  image?: PickedFile | null;
}

export interface CarouselValues {
  title: string;
}

function validateCarouselTitle(value: unknown): string | null {
  const title = readText(value);
  if (title === '') return CAROUSEL_MESSAGES.titleRequired;
  if (title.length > CAROUSEL_LIMITS.title) return CAROUSEL_MESSAGES.titleTooLong;
  return null;
}

export interface CarouselValidationOptions {
  /**
   * 'picked' (the form): the browser's name, type and size are checked too. 'presence' (the
   * server): only that a file came; the upload code decides on the bytes themselves.
   */
  imageCheck?: 'picked' | 'presence';
}

export function validateCarouselInput(
  input: CarouselFormInput,
  options: CarouselValidationOptions = {},
): ValidationResult<CarouselValues> {
  const errors: FieldErrors = {};
  const titleError = validateCarouselTitle(input.title);
  if (titleError) errors.title = titleError;
  const imageError =
    options.imageCheck === 'presence' ? (input.image ? null : UPLOAD_MESSAGES.imageMissing) : checkPickedImage(input.image);
  if (imageError) errors.image = imageError;
  return { values: { title: readText(input.title) }, errors };
}
