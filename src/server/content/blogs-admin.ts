import type { AppContext } from '../context.ts';
import type { Db } from '../db/client.ts';
import type { PublicUser } from '../db/repositories/users.ts';
import { deleteBlog, findBlogById, insertBlog, updateBlog, type Blog, type BlogWrite } from '../db/repositories/blogs.ts';
import { findCategoryById } from '../db/repositories/categories.ts';
import { invalidInput, notFound, throwIfInvalid } from '../errors.ts';
import { tag, uniqueTags, type PageTag } from '../page-store/site-tags.ts';
import { removeUnreferencedUploads } from '../uploads/cleanup.ts';
import { BLOG_MESSAGES, validateBlogInput, type BlogValues } from '../../shared/validation/blog.ts';
import { htmlToText, sanitizeArticleHtml } from './sanitize.ts';
import { toBlogDto } from './blog-dto.ts';
import { indexAttachedPdf } from './search-index.ts';
import type { DeletedAnswer, SavedBlog } from '../../shared/api-types.ts';

/**
 * Article writes for the admin API. Each one validates with the same schema as the admin form,
 * commits in one transaction (the blog and its full-text row together), then refreshes exactly
 * the pages showing what changed and answers how long that took.
 */

export type BlogAnswer = SavedBlog;

function validated(body: Record<string, unknown>): BlogValues {
  return throwIfInvalid(validateBlogInput(body));
}

async function requireCategory(db: Db, id: number | null): Promise<void> {
  if (id === null || !(await findCategoryById(db, id))) {
    throw invalidInput(BLOG_MESSAGES.categoryMissing, { category_id: BLOG_MESSAGES.categoryMissing });
  }
}

/** The stored fields: sanitized HTML whoever sent it, the editor source kept as given. */
function toWrite(values: BlogValues, author: string): { write: BlogWrite; text: string } {
  const content = sanitizeArticleHtml(values.content);
  return {
    write: {
      title: values.title,
      author,
      content,
      content_source: values.content_source,
      category_id: values.category_id,
      image: values.image,
      video_link: values.video_link,
      is_video: values.is_video ? 1 : 0,
      pdf_drive_link: values.pdf_link,
      pay_link: values.payment_link,
      form_name: values.form_name,
      form_link: values.form_link,
    },
    text: htmlToText(content),
  };
}

const hasPdf = (blog: Pick<Blog, 'pdf_drive_link'>) => Boolean(blog.pdf_drive_link);

export async function createBlog(app: AppContext, admin: PublicUser, body: Record<string, unknown>): Promise<BlogAnswer> {
  const startedAt = performance.now();
  const values = validated(body);
  const { write, text } = toWrite(values, admin.username);
  const blog = await app.db.transaction().execute(async (trx) => {
    await requireCategory(trx, values.category_id);
    const id = await insertBlog(trx, write, text);
    return (await findBlogById(trx, id))!;
  });
  // A new article joins the lists: their membership tags.
  const tags: PageTag[] = [tag.list, tag.updates, tag.blog(blog.id), tag.topViewed];
  if (blog.category_id !== null) tags.push(tag.category(blog.category_id));
  if (hasPdf(blog)) tags.push(tag.downloads);
  const { live_ms, refresh } = await app.pageCache.invalidate(tags, startedAt);
  // Search pages are never stored, so a new PDF's text is read after the pages are fresh.
  await indexAttachedPdf(app, blog);
  return { ...toBlogDto(blog), live_ms, refresh };
}

/** Replaces every field; the author stays the one who wrote the article. */
export async function updateBlogById(app: AppContext, id: number, body: Record<string, unknown>): Promise<BlogAnswer> {
  const startedAt = performance.now();
  const values = validated(body);
  const { before, after } = await app.db.transaction().execute(async (trx) => {
    const existing = await findBlogById(trx, id);
    if (!existing) throw notFound('That blog');
    await requireCategory(trx, values.category_id);
    const { write, text } = toWrite(values, existing.author);
    await updateBlog(trx, id, write, text);
    return { before: existing, after: (await findBlogById(trx, id))! };
  });
  const { live_ms, refresh } = await app.pageCache.invalidate(changedTags(before, after), startedAt);
  await indexAttachedPdf(app, after);
  // Files the edit dropped (a replaced image or PDF, an image taken out of the text).
  await removeUnreferencedUploads(app.db, app.config.uploadsDir, [
    before.image,
    before.pdf_drive_link,
    before.content,
    before.content_source,
  ]);
  return { ...toBlogDto(after), live_ms, refresh };
}

/**
 * An edit of what an article shows bumps its own tag: the list pages showing it carry that tag.
 * Only a change of membership (a delete, a move to another category) bumps the lists' tags; the
 * lists are ordered by creation, which an edit cannot change.
 */
function changedTags(before: Blog, after: Blog | null): PageTag[] {
  const tags: PageTag[] = [tag.blog(before.id), tag.updates];
  if (!after) tags.push(tag.list, tag.topViewed);
  if (!after || after.category_id !== before.category_id) {
    if (before.category_id !== null) tags.push(tag.category(before.category_id));
    if (after?.category_id != null) tags.push(tag.category(after.category_id));
  }
  if (hasPdf(before) || (after && hasPdf(after))) tags.push(tag.downloads);
  return uniqueTags(tags);
}

export async function deleteBlogById(app: AppContext, id: number): Promise<DeletedAnswer> {
  const startedAt = performance.now();
  const before = await app.db.transaction().execute(async (trx) => {
    const existing = await findBlogById(trx, id);
    if (!existing) throw notFound('That blog');
    // Its comments go with it (foreign key on delete cascade).
    await deleteBlog(trx, id);
    return existing;
  });
  const { live_ms, refresh } = await app.pageCache.invalidate([...changedTags(before, null), tag.comments(id)], startedAt);
  // Uploaded files go too once nothing else uses them; demo files and external links never do.
  await removeUnreferencedUploads(app.db, app.config.uploadsDir, [
    before.image,
    before.pdf_drive_link,
    before.content,
    before.content_source,
  ]);
  return { message: 'Blog deleted successfully', live_ms, refresh };
}
