import { utf8Length, type FieldErrors, type ValidationResult } from './common.ts';
import { BLOG_LIMITS } from './blog.ts';

/** About and Contact (`/admin/pages`, `PUT /api/admin/pages/:slug`): the editor's HTML and source, as articles. */

export const INFO_PAGE_SLUGS = ['about', 'contact'] as const;
export type InfoPageSlug = (typeof INFO_PAGE_SLUGS)[number];

export const INFO_PAGE_TITLES: Record<InfoPageSlug, string> = { about: 'About Us', contact: 'Contact' };

export const INFO_PAGE_MESSAGES = {
  contentRequired: 'The page needs some text.',
  contentTooLong: 'Content must be at most 500 KB.',
  contentSourceTooLong: 'The editor content must be at most 500 KB.',
  notFound: 'There is no such page: only about and contact can be edited.',
  saved: (title: string) => `${title} page saved.`,
  restored: (title: string) => `${title} page restored from the revision.`,
} as const;

export interface InfoPageInput {
  content?: unknown;
  content_source?: unknown;
}

export interface InfoPageValues {
  content: string;
  content_source: string | null;
}

export function isInfoPageSlug(value: unknown): value is InfoPageSlug {
  return (INFO_PAGE_SLUGS as readonly unknown[]).includes(value);
}

/** Whether HTML has any text or picture a reader would see. */
export function hasVisibleContent(html: string): boolean {
  return /<(img|iframe|hr)\b/i.test(html) || html.replace(/<[^>]*>/g, '').replace(/&nbsp;|\s/g, '') !== '';
}

export function validateInfoPageInput(input: InfoPageInput): ValidationResult<InfoPageValues> {
  const errors: FieldErrors = {};
  const content = typeof input.content === 'string' ? input.content : '';
  if (!hasVisibleContent(content)) errors.content = INFO_PAGE_MESSAGES.contentRequired;
  else if (utf8Length(content) > BLOG_LIMITS.content) errors.content = INFO_PAGE_MESSAGES.contentTooLong;
  const source = typeof input.content_source === 'string' && input.content_source !== '' ? input.content_source : null;
  if (source !== null && utf8Length(source) > BLOG_LIMITS.contentSource)
    errors.content_source = INFO_PAGE_MESSAGES.contentSourceTooLong;
  return { values: { content, content_source: source }, errors };
}
