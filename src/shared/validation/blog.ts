import { isHttpUrl, isUploadPath, readInteger, readText, utf8Length, type FieldErrors, type ValidationResult } from './common.ts';
import { readPublishing, type PublishValues } from './publishing.ts';

/**
 * The blog create/edit rules of docs/product.md#validation-rules, shared by the admin form (before it sends) and
 * POST/PUT /api/blogs (whatever is sent). Whether the category exists is the one rule only the
 * server can check; it reports it under `category_id` with BLOG_MESSAGES.categoryMissing.
 */

export const BLOG_LIMITS = {
  title: 200,
  /** Bytes of sanitized HTML. */
  content: 500 * 1024,
  /** Bytes of the editor's own source (markdown). */
  contentSource: 500 * 1024,
  formName: 200,
} as const;

export const BLOG_MESSAGES = {
  titleRequired: 'Title is required.',
  titleTooLong: `Title must be at most ${BLOG_LIMITS.title} characters.`,
  categoryRequired: 'Please select a category.',
  categoryMissing: 'The selected category does not exist.',
  contentTooLong: 'Content must be at most 500 KB.',
  contentSourceTooLong: 'The editor content must be at most 500 KB.',
  contentNotText: 'Content must be text.',
  image: 'Featured image must be an uploaded image or an http(s) address.',
  pdf: 'PDF must be an uploaded PDF file or an http(s) address.',
  paymentLink: 'Payment link must be a valid URL (http or https).',
  isVideo: 'Video post must be yes or no.',
  videoRequired: 'Video link is required for a video post.',
  videoInvalid: 'Video link must be a valid URL (http or https).',
  formNameRequired: 'Form name is required when a link is added.',
  formNameTooLong: `Form name must be at most ${BLOG_LIMITS.formName} characters.`,
  formLinkRequired: 'Form link is required when a link is added.',
  formLinkInvalid: 'Form link must be a valid URL (http or https).',
} as const;

/** The body of POST and PUT /api/blogs (docs/product.md#the-api), as the form or a client sends it. */
export interface BlogFormInput {
  title?: unknown;
  content?: unknown;
  content_source?: unknown;
  category_id?: unknown;
  image?: unknown;
  pdf_link?: unknown;
  isVideo?: unknown;
  video_link?: unknown;
  payment_link?: unknown;
  form_name?: unknown;
  form_link?: unknown;
  status?: unknown;
  publish_at?: unknown;
}

/** Normalized values: trimmed, blanks as null, fields hidden by a toggle dropped. */
export interface BlogValues extends PublishValues {
  title: string;
  content: string;
  content_source: string | null;
  category_id: number | null;
  image: string | null;
  pdf_link: string | null;
  is_video: boolean;
  video_link: string | null;
  payment_link: string | null;
  form_name: string | null;
  form_link: string | null;
}

export interface BlogValidationOptions {
  /**
   * The form's link toggle. When left out (the server), a link is present as soon as a form name
   * or a form link is given.
   */
  linkEnabled?: boolean;
  /** The time a schedule must be after (milliseconds); now when left out. */
  now?: number;
}

/** isVideo arrives as "1"/"0" (docs/product.md#what-is-stored), or as a boolean or number from other clients. */
export function parseIsVideo(value: unknown): boolean | null {
  if (value === undefined || value === null || value === '') return false;
  if (value === true || value === 1 || value === '1' || value === 'true') return true;
  if (value === false || value === 0 || value === '0' || value === 'false') return false;
  return null;
}

/** '' or null for none, else a same-site /uploads/ path or an http(s) address. */
function readFileLink(value: unknown, errors: FieldErrors, field: string, message: string): string | null {
  if (value !== undefined && value !== null && typeof value !== 'string') {
    errors[field] = message;
    return null;
  }
  const text = readText(value);
  if (text === '') return null;
  if (!isUploadPath(text) && !isHttpUrl(text)) errors[field] = message;
  return text;
}

function readOptionalUrl(value: unknown, errors: FieldErrors, field: string, message: string): string | null {
  const text = readText(value);
  if (text === '') return null;
  if (!isHttpUrl(text)) errors[field] = message;
  return text;
}

export function validateBlogInput(input: BlogFormInput, options: BlogValidationOptions = {}): ValidationResult<BlogValues> {
  const errors: FieldErrors = {};

  const title = readText(input.title);
  if (title === '') errors.title = BLOG_MESSAGES.titleRequired;
  else if (title.length > BLOG_LIMITS.title) errors.title = BLOG_MESSAGES.titleTooLong;

  const categoryRaw = typeof input.category_id === 'string' ? input.category_id.trim() : input.category_id;
  const categoryId = categoryRaw === undefined || categoryRaw === null || categoryRaw === '' ? null : readInteger(categoryRaw);
  if (categoryId === null || categoryId < 1) errors.category_id = BLOG_MESSAGES.categoryRequired;

  let content = '';
  if (input.content !== undefined && input.content !== null && typeof input.content !== 'string') {
    errors.content = BLOG_MESSAGES.contentNotText;
  } else {
    content = input.content ?? '';
    if (utf8Length(content) > BLOG_LIMITS.content) errors.content = BLOG_MESSAGES.contentTooLong;
  }

  let contentSource: string | null = null;
  if (typeof input.content_source === 'string' && input.content_source !== '') {
    contentSource = input.content_source;
    if (utf8Length(contentSource) > BLOG_LIMITS.contentSource) errors.content_source = BLOG_MESSAGES.contentSourceTooLong;
  }

  const image = readFileLink(input.image, errors, 'image', BLOG_MESSAGES.image);
  const pdfLink = readFileLink(input.pdf_link, errors, 'pdf_link', BLOG_MESSAGES.pdf);
  const paymentLink = readOptionalUrl(input.payment_link, errors, 'payment_link', BLOG_MESSAGES.paymentLink);

  const isVideo = parseIsVideo(input.isVideo);
  if (isVideo === null) errors.isVideo = BLOG_MESSAGES.isVideo;
  let videoLink: string | null = null;
  if (isVideo) {
    videoLink = readText(input.video_link) || null;
    if (videoLink === null) errors.video_link = BLOG_MESSAGES.videoRequired;
    else if (!isHttpUrl(videoLink)) errors.video_link = BLOG_MESSAGES.videoInvalid;
  }

  let formName = readText(input.form_name) || null;
  let formLink = readText(input.form_link) || null;
  const linkPresent = options.linkEnabled ?? (formName !== null || formLink !== null);
  if (linkPresent) {
    if (formName === null) errors.form_name = BLOG_MESSAGES.formNameRequired;
    else if (formName.length > BLOG_LIMITS.formName) errors.form_name = BLOG_MESSAGES.formNameTooLong;
    if (formLink === null) errors.form_link = BLOG_MESSAGES.formLinkRequired;
    else if (!isHttpUrl(formLink)) errors.form_link = BLOG_MESSAGES.formLinkInvalid;
  } else {
    formName = null;
    formLink = null;
  }

  const publishing = readPublishing(input, errors, options.now ?? Date.now());

  return {
    values: {
      ...publishing,
      title,
      content,
      content_source: contentSource,
      category_id: categoryId !== null && categoryId >= 1 ? categoryId : null,
      image,
      pdf_link: pdfLink,
      is_video: isVideo === true,
      video_link: videoLink,
      payment_link: paymentLink,
      form_name: formName,
      form_link: formLink,
    },
    errors,
  };
}
