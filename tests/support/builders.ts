import type { BlogWrite } from '../../src/server/db/repositories/blogs.ts';

/**
 * Builders for test data, one per entity: a valid value unless told otherwise. The `*Body` ones are
 * what the HTTP API takes; buildBlogWrite is a row for the repositories.
 */

export type Json = Record<string, unknown>;

let serial = 0;

/** A name no other call in this test process returns (titles, category names). */
export function uniqueName(prefix: string): string {
  serial += 1;
  return `${prefix} ${serial} ${Date.now().toString(36)}`;
}

/** A unique, valid username/email/password for this test process. */
export function buildAccount(prefix = 'user'): { username: string; email: string; password: string } {
  serial += 1;
  const tag = `${prefix}${process.pid.toString(36)}${Date.now().toString(36).slice(-4)}${serial}`.slice(0, 30);
  return { username: tag, email: `${tag}@example.test`, password: `pw-${tag}-secret` };
}

/** A blog row for the repositories (insertBlog/updateBlog): a plain article unless told otherwise. */
export function buildBlogWrite(overrides: Partial<BlogWrite> = {}): BlogWrite {
  return {
    title: 'A blog',
    author: 'admin',
    content: '<p>x</p>',
    content_source: null,
    category_id: null,
    image: null,
    video_link: null,
    is_video: 0,
    pdf_drive_link: null,
    pay_link: null,
    form_name: null,
    form_link: null,
    ...overrides,
  };
}

/** The write body of POST/PUT /api/blogs: a plain article with a unique title in the given category. */
export function buildBlogBody(categoryId: number, overrides: Json = {}): Json {
  return {
    title: uniqueName('Test article'),
    content: '<p>Body text with <strong>bold</strong>.</p>',
    content_source: 'Body text with **bold**.',
    category_id: categoryId,
    image: '',
    pdf_link: '',
    isVideo: '0',
    video_link: '',
    payment_link: '',
    form_name: '',
    form_link: '',
    ...overrides,
  };
}

/** The write body (POST/PUT /api/blogs) that keeps a blog as the API returned it, with overrides. */
export function blogBodyFrom(blog: Json, overrides: Json = {}): Json {
  return {
    title: blog.title,
    content: blog.content,
    content_source: blog.content_source ?? '',
    category_id: blog.category_id,
    image: blog.image ?? '',
    pdf_link: blog.pdf_drive_link ?? '',
    isVideo: blog.isVideo,
    video_link: blog.video_link ?? '',
    payment_link: blog.pay_link ?? '',
    form_name: blog.form_name ?? '',
    form_link: blog.form_link ?? '',
    ...overrides,
  };
}

/** The body of POST /api/blogs/:id/comment. */
export function buildCommentBody(overrides: Partial<{ username: string; comment: string; contact: string }> = {}) {
  return { username: 'Reader', comment: 'A test comment', contact: '', ...overrides };
}

/** A category for POST/PUT /api/categories or insertCategory: a unique name, listed first. */
export function buildCategory(overrides: Partial<{ name: string; sequence: number }> = {}): { name: string; sequence: number } {
  return { name: uniqueName('Category'), sequence: 0, ...overrides };
}
