import type { AppContext } from '../context.ts';
import type { Db } from '../db/client.ts';
import type { PublicUser } from '../db/repositories/users.ts';
import { deleteBlog, findBlogById, insertBlog, updateBlog, type Blog, type BlogWrite } from '../db/repositories/blogs.ts';
import { findCategoryById } from '../db/repositories/categories.ts';
import { listRevisionFiles } from '../db/repositories/revisions.ts';
import { invalidInput, notFound, throwIfInvalid } from '../errors.ts';
import { tag } from '../page-store/site-tags.ts';
import { removeUnreferencedUploads } from '../uploads/cleanup.ts';
import { BLOG_MESSAGES, validateBlogInput, type BlogValues } from '../../shared/validation/blog.ts';
import { htmlToText, sanitizeArticleHtml } from './sanitize.ts';
import { toBlogDto, withPublishing } from './blog-dto.ts';
import { indexAttachedPdf } from './search-index.ts';
import { changedTags, publicationDate, takenDownTags } from './blog-publication.ts';
import { navTagsForCategoryChanges } from './category-visibility.ts';
import { neighbourTagsForChanges } from './article-neighbours.ts';
import { getRevision, recordRevision, restoreBody, type RevisionAction } from './blog-revisions.ts';
import type { DeletedAnswer, SavedBlog } from '../../shared/api-types.ts';

/**
 * Article writes for the admin API. Each one validates with the same schema as the admin form,
 * commits in one transaction (the blog, its full-text row and its revision together), then
 * refreshes exactly the pages showing what changed and answers how long that took. Drafts and
 * not-yet-due articles reach no page, so saving one refreshes nothing.
 */

export type BlogAnswer = SavedBlog;

/** What an article joining or leaving the lists changes beyond its own tags: the nav, its neighbours' links. */
async function listingTags(db: Db, changes: Array<{ before: Blog | null; after: Blog | null }>, now = new Date().toISOString()) {
  return [...(await navTagsForCategoryChanges(db, changes, now)), ...(await neighbourTagsForChanges(db, changes, now))];
}

type FileRefs = Pick<Blog, 'image' | 'pdf_drive_link' | 'content' | 'content_source'>;
const fileTexts = (rows: FileRefs[]) => rows.flatMap((r) => [r.image, r.pdf_drive_link, r.content, r.content_source]);

function validated(body: Record<string, unknown>): BlogValues {
  return throwIfInvalid(validateBlogInput(body));
}

async function requireCategory(db: Db, id: number | null): Promise<void> {
  if (id === null || !(await findCategoryById(db, id))) {
    throw invalidInput(BLOG_MESSAGES.categoryMissing, { category_id: BLOG_MESSAGES.categoryMissing });
  }
}

/** The stored fields: sanitized HTML whoever sent it (an import too), the editor source kept as given. */
export function toBlogWrite(values: BlogValues, author: string): { write: BlogWrite; text: string } {
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
      status: values.status,
      publish_at: values.publish_at,
    },
    text: htmlToText(content),
  };
}

export async function createBlog(app: AppContext, admin: PublicUser, body: Record<string, unknown>): Promise<BlogAnswer> {
  const startedAt = performance.now();
  const values = validated(body);
  const { write, text } = toBlogWrite(values, admin.username);
  const blog = await app.db.transaction().execute(async (trx) => {
    await requireCategory(trx, values.category_id);
    const id = await insertBlog(trx, write, text);
    const created = (await findBlogById(trx, id))!;
    await recordRevision(trx, created, admin, 'create', app.config.revisionsKeep);
    return created;
  });
  if (blog.status === 'scheduled') app.publishScheduler?.wake();
  const tags = [...changedTags(null, blog), ...(await listingTags(app.db, [{ before: null, after: blog }]))];
  const { live_ms, refresh } = await app.pageCache.invalidate(tags, startedAt);
  // Search pages are never stored, so a new PDF's text is read after the pages are fresh.
  await indexAttachedPdf(app, blog);
  return { ...withPublishing(toBlogDto(blog), blog), live_ms, refresh };
}

/** Replaces every field; the author stays the one who wrote the article. */
export async function updateBlogById(
  app: AppContext,
  admin: PublicUser,
  id: number,
  body: Record<string, unknown>,
  action: RevisionAction = 'update',
): Promise<BlogAnswer> {
  const startedAt = performance.now();
  const values = validated(body);
  const { before, after, pruned } = await app.db.transaction().execute(async (trx) => {
    const existing = await findBlogById(trx, id);
    if (!existing) throw notFound('That blog');
    await requireCategory(trx, values.category_id);
    const { write, text } = toBlogWrite(values, existing.author);
    await updateBlog(trx, id, write, text, publicationDate(existing, values, new Date().toISOString()));
    const saved = (await findBlogById(trx, id))!;
    const dropped = await recordRevision(trx, saved, admin, action, app.config.revisionsKeep);
    return { before: existing, after: saved, pruned: dropped };
  });
  if (after.status === 'scheduled') app.publishScheduler?.wake();
  const now = new Date().toISOString();
  const tags = [...changedTags(before, after, now), ...(await listingTags(app.db, [{ before, after }], now))];
  const { live_ms, refresh } = await app.pageCache.invalidate(tags, startedAt, takenDownTags(before, after, now));
  await indexAttachedPdf(app, after);
  // Files the edit dropped (a replaced or removed image or PDF, an image taken out of the text),
  // unless a kept revision still uses them.
  await removeUnreferencedUploads(app.db, app.config.uploadsDir, fileTexts([before, ...pruned]));
  return { ...withPublishing(toBlogDto(after), after), live_ms, refresh };
}

/** Brings a revision's article fields back, as a save of its own (a new revision). */
export async function restoreRevision(app: AppContext, admin: PublicUser, id: number, revisionId: number): Promise<BlogAnswer> {
  const current = await findBlogById(app.db, id);
  if (!current) throw notFound('That blog');
  const revision = await getRevision(app, id, revisionId);
  return updateBlogById(app, admin, id, restoreBody(revision, current), 'restore');
}

export async function deleteBlogById(app: AppContext, id: number): Promise<DeletedAnswer> {
  const startedAt = performance.now();
  const { before, revisions } = await app.db.transaction().execute(async (trx) => {
    const existing = await findBlogById(trx, id);
    if (!existing) throw notFound('That blog');
    const files = await listRevisionFiles(trx, id);
    // Its comments and revisions go with it (foreign keys on delete cascade).
    await deleteBlog(trx, id);
    return { before: existing, revisions: files };
  });
  const now = new Date().toISOString();
  const tags = changedTags(before, null, now);
  if (tags.length) tags.push(tag.comments(id), ...(await listingTags(app.db, [{ before, after: null }], now)));
  const { live_ms, refresh } = await app.pageCache.invalidate(tags, startedAt, takenDownTags(before, null, now));
  // Uploaded files go too once nothing else uses them; demo files and external links never do.
  await removeUnreferencedUploads(app.db, app.config.uploadsDir, fileTexts([before, ...revisions]));
  return { message: 'Blog deleted successfully', live_ms, refresh };
}
