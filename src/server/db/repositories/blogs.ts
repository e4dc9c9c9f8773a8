import type { Selectable, SelectQueryBuilder } from 'kysely';
import type { Db } from '../client.ts';
import type { BlogStatus, BlogsTable, Database } from '../schema.ts';
import { deleteSearchRow, writeSearchRow } from './search.ts';
import { blogIsPublic, isPublicBlog } from './visibility.ts';
import { preparedQuery } from './prepared-query.ts';

/** A blog as every reader of it sees it: the entity fields of docs/product.md#what-is-stored. */
export interface Blog extends Selectable<BlogsTable> {
  category_name: string | null;
}

type SummaryField =
  | 'id'
  | 'title'
  | 'author'
  | 'image'
  | 'category_id'
  | 'category_name'
  | 'pdf_drive_link'
  | 'is_video'
  | 'video_link'
  | 'created_at'
  | 'clicks';

/** A blog in a list: the card's fields and an excerpt of the text. */
export interface BlogSummary extends Pick<Blog, SummaryField> {
  excerpt: string;
}

/**
 * What an editor sets; the id, the dates and the view count are the table's own, and the demo
 * mark is set only by the seed (repositories/demo-content.ts).
 */
export type BlogWrite = Omit<
  Selectable<BlogsTable>,
  'id' | 'created_at' | 'updated_at' | 'clicks' | 'is_demo' | 'status' | 'publish_at'
> & {
  /** Published when left out (the seed, older callers). */
  status?: BlogStatus;
  publish_at?: string | null;
};

export type BlogQuery = SelectQueryBuilder<Database, 'blogs' | 'categories', object>;

export function fromBlogs(db: Db): BlogQuery {
  return db.selectFrom('blogs').leftJoin('categories', 'categories.id', 'blogs.category_id') as unknown as BlogQuery;
}

export const fullColumns = [
  'blogs.id',
  'blogs.title',
  'blogs.author',
  'blogs.content',
  'blogs.content_source',
  'blogs.category_id',
  'categories.name as category_name',
  'blogs.image',
  'blogs.video_link',
  'blogs.is_video',
  'blogs.pdf_drive_link',
  'blogs.pay_link',
  'blogs.form_name',
  'blogs.form_link',
  'blogs.created_at',
  'blogs.updated_at',
  'blogs.clicks',
  'blogs.status',
  'blogs.publish_at',
] as const;

/** Any blog, whatever its status: for admins and the services that write. */
/** Rows read with `id in (...)` put back in the order of `ids` (a ranking); ids with no row are left out. */
export function inIdOrder<Row extends { id: number }>(ids: readonly number[], rows: readonly Row[]): Row[] {
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

export function findBlogById(db: Db, id: number): Promise<Blog | undefined> {
  return fromBlogs(db).select(fullColumns).where('blogs.id', '=', id).executeTakeFirst() as Promise<Blog | undefined>;
}

/** A blog readers may see (published, or scheduled and due); undefined for drafts and the not yet due. */
const publicBlogById = preparedQuery({
  build: (db: Db, id: number, now: string) =>
    fromBlogs(db).select(fullColumns).where('blogs.id', '=', id).where(isPublicBlog('blogs', now)),
  parameters: (id, now) => [id, now],
});

export async function findPublicBlogById(db: Db, id: number): Promise<Blog | undefined> {
  return (await publicBlogById(db, id, new Date().toISOString()))[0] as Blog | undefined;
}

/**
 * The search indexes hold only what readers may see, so no search, suggestion or snippet can
 * reveal a draft: an unpublished blog has no rows there (the scheduler adds them when it publishes).
 */
async function syncSearchRow(db: Db, id: number, input: BlogWrite, bodyText: string): Promise<void> {
  if (blogIsPublic({ status: input.status ?? 'published', publish_at: input.publish_at ?? null }))
    await writeSearchRow(db, id, input.title, bodyText, input.pdf_drive_link);
  else await deleteSearchRow(db, id);
}

/** Inserts the blog and its search rows; call inside a transaction. */
export async function insertBlog(db: Db, input: BlogWrite, bodyText: string, now = new Date().toISOString()): Promise<number> {
  const { id } = await db
    .insertInto('blogs')
    .values({ ...input, created_at: (input.status === 'scheduled' && input.publish_at) || now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  await syncSearchRow(db, id, input, bodyText);
  return id;
}

/**
 * Updates the blog and its search rows; call inside a transaction. `createdAt` moves the
 * article's date: an article going public takes its publish time, so it joins the lists on top.
 */
export async function updateBlog(db: Db, id: number, input: BlogWrite, bodyText: string, createdAt?: string): Promise<boolean> {
  const result = await db
    .updateTable('blogs')
    .set({ ...input, updated_at: new Date().toISOString(), ...(createdAt ? { created_at: createdAt } : {}) })
    .where('id', '=', id)
    .executeTakeFirst();
  if (result.numUpdatedRows === 0n) return false;
  await syncSearchRow(db, id, input, bodyText);
  return true;
}

export async function deleteBlog(db: Db, id: number): Promise<boolean> {
  const result = await db.deleteFrom('blogs').where('id', '=', id).executeTakeFirst();
  await deleteSearchRow(db, id);
  return result.numDeletedRows > 0n;
}

export async function incrementClicks(db: Db, id: number): Promise<boolean> {
  const result = await db
    .updateTable('blogs')
    .set((eb) => ({ clicks: eb('clicks', '+', 1) }))
    .where('id', '=', id)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Sets the view count (the demo seed spreads its articles over the top-viewed list). */
export async function setClicks(db: Db, id: number, clicks: number): Promise<void> {
  await db.updateTable('blogs').set({ clicks }).where('id', '=', id).execute();
}

/**
 * Claims the scheduled blogs that are due: one conditional UPDATE flips them to published, so
 * when several serving processes run the scheduler each due blog is published by exactly one.
 * Call inside a transaction (the search rows and revisions go with the claim).
 */
export async function claimDueBlogs(db: Db, now: string): Promise<number[]> {
  const rows = await db
    .updateTable('blogs')
    .set({ status: 'published', updated_at: now })
    .where('status', '=', 'scheduled')
    .where('publish_at', '<=', now)
    .returning('id')
    .execute();
  return rows.map((row) => row.id);
}

/** When the next scheduled blog is due (ISO 8601), or null when none is scheduled. */
export async function nextPublishAt(db: Db): Promise<string | null> {
  const row = await db
    .selectFrom('blogs')
    .select((eb) => eb.fn.min('publish_at').as('next'))
    .where('status', '=', 'scheduled')
    .executeTakeFirst();
  return (row?.next as string | null | undefined) ?? null;
}

/** Writes a blog's search rows as they are now (after the scheduler publishes it). */
export async function indexBlog(db: Db, blog: Pick<Blog, 'id' | 'title' | 'pdf_drive_link'>, bodyText: string): Promise<void> {
  await writeSearchRow(db, blog.id, blog.title, bodyText, blog.pdf_drive_link);
}
