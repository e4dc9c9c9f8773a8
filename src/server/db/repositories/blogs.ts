import type { Selectable, SelectQueryBuilder } from 'kysely';
import type { Db } from '../client.ts';
import type { BlogsTable, Database } from '../schema.ts';
import { deleteSearchRow, writeSearchRow } from './search.ts';

/** A blog as every reader of it sees it: the entity fields of SPEC.md section 3. */
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
export type BlogWrite = Omit<Selectable<BlogsTable>, 'id' | 'created_at' | 'updated_at' | 'clicks' | 'is_demo'>;

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
] as const;

export function findBlogById(db: Db, id: number): Promise<Blog | undefined> {
  return fromBlogs(db).select(fullColumns).where('blogs.id', '=', id).executeTakeFirst() as Promise<Blog | undefined>;
}

/** Inserts the blog and its search rows; call inside a transaction. */
export async function insertBlog(db: Db, input: BlogWrite, bodyText: string, now = new Date().toISOString()): Promise<number> {
  const { id } = await db
    .insertInto('blogs')
    .values({ ...input, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  await writeSearchRow(db, id, input.title, bodyText, input.pdf_drive_link);
  return id;
}

/** Updates the blog and its search rows; call inside a transaction. */
export async function updateBlog(db: Db, id: number, input: BlogWrite, bodyText: string): Promise<boolean> {
  const result = await db
    .updateTable('blogs')
    .set({ ...input, updated_at: new Date().toISOString() })
    .where('id', '=', id)
    .executeTakeFirst();
  if (result.numUpdatedRows === 0n) return false;
  await writeSearchRow(db, id, input.title, bodyText, input.pdf_drive_link);
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
