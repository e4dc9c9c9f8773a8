import { sql, type SelectQueryBuilder } from 'kysely';
import type { Db } from '../client.ts';
import type { Database } from '../schema.ts';

/** A blog as every reader of it sees it: the entity fields of SPEC.md section 3. */
export interface Blog {
  id: number;
  title: string;
  author: string;
  content: string;
  content_source: string | null;
  category_id: number | null;
  category_name: string | null;
  image: string | null;
  video_link: string | null;
  is_video: number;
  pdf_drive_link: string | null;
  pay_link: string | null;
  form_name: string | null;
  form_link: string | null;
  created_at: string;
  updated_at: string;
  clicks: number;
}

export interface BlogSummary {
  id: number;
  title: string;
  author: string;
  image: string | null;
  category_id: number | null;
  category_name: string | null;
  pdf_drive_link: string | null;
  is_video: number;
  video_link: string | null;
  created_at: string;
  clicks: number;
  excerpt: string;
}

export interface BlogWrite {
  title: string;
  author: string;
  content: string;
  content_source: string | null;
  category_id: number | null;
  image: string | null;
  video_link: string | null;
  is_video: number;
  pdf_drive_link: string | null;
  pay_link: string | null;
  form_name: string | null;
  form_link: string | null;
}

export interface BlogFilter {
  categoryId?: number | undefined;
  /** An FTS5 MATCH expression built by buildFtsQuery, never raw user text. */
  ftsQuery?: string | undefined;
}

type BlogQuery = SelectQueryBuilder<Database, 'blogs' | 'categories', object>;

function fromBlogs(db: Db): BlogQuery {
  return db.selectFrom('blogs').leftJoin('categories', 'categories.id', 'blogs.category_id') as unknown as BlogQuery;
}

const fullColumns = [
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

// The excerpt comes from the full-text index's copy of the text, so no HTML is parsed per row.
const summaryColumns = [
  'blogs.id',
  'blogs.title',
  'blogs.author',
  'blogs.image',
  'blogs.category_id',
  'categories.name as category_name',
  'blogs.pdf_drive_link',
  'blogs.is_video',
  'blogs.video_link',
  'blogs.created_at',
  'blogs.clicks',
] as const;

export function findBlogById(db: Db, id: number): Promise<Blog | undefined> {
  return fromBlogs(db).select(fullColumns).where('blogs.id', '=', id).executeTakeFirst() as Promise<Blog | undefined>;
}

function applyFilter(query: BlogQuery, filter: BlogFilter): BlogQuery {
  let q = query;
  if (filter.categoryId !== undefined) q = q.where('blogs.category_id', '=', filter.categoryId);
  if (filter.ftsQuery !== undefined) {
    q = q
      .innerJoin('blogs_fts', (join) => join.onRef(sql.ref('blogs_fts.rowid'), '=', sql.ref('blogs.id')))
      .where(sql<boolean>`blogs_fts match ${filter.ftsQuery}`) as unknown as BlogQuery;
  }
  return q;
}

export async function listBlogSummaries(
  db: Db,
  filter: BlogFilter,
  page: { limit: number; offset: number },
): Promise<BlogSummary[]> {
  let q = applyFilter(fromBlogs(db), filter);
  if (filter.ftsQuery !== undefined) {
    q = q.orderBy(sql`bm25(blogs_fts, 10.0, 1.0)`);
  } else {
    // Page N of a list: the ids come from the (category_id,) created_at, id index alone, so a deep
    // offset skips index entries, not joined rows; only the page's rows are then read in full.
    const pageIds = db
      .selectFrom('blogs')
      .select('blogs.id')
      .$if(filter.categoryId !== undefined, (ids) => ids.where('blogs.category_id', '=', filter.categoryId!))
      .orderBy('blogs.created_at', 'desc')
      .orderBy('blogs.id', 'desc')
      .limit(page.limit)
      .offset(page.offset);
    const rows = await fromBlogs(db)
      .select(summaryColumns)
      .select(sql<string>`(select substr(body, 1, 220) from blogs_fts where blogs_fts.rowid = blogs.id)`.as('excerpt'))
      .where('blogs.id', 'in', pageIds)
      .orderBy('blogs.created_at', 'desc')
      .orderBy('blogs.id', 'desc')
      .execute();
    return rows.map((row) => ({ ...row, excerpt: (row as { excerpt: string | null }).excerpt ?? '' })) as BlogSummary[];
  }
  const rows = await q
    .select(summaryColumns)
    .select(sql<string>`(select substr(body, 1, 220) from blogs_fts where blogs_fts.rowid = blogs.id)`.as('excerpt'))
    .orderBy('blogs.created_at', 'desc')
    .orderBy('blogs.id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  return rows.map((row) => ({ ...row, excerpt: (row as { excerpt: string | null }).excerpt ?? '' })) as BlogSummary[];
}

export async function listBlogsFull(db: Db, filter: BlogFilter, page: { limit: number; offset: number }): Promise<Blog[]> {
  let q = applyFilter(fromBlogs(db), filter);
  if (filter.ftsQuery !== undefined) q = q.orderBy(sql`bm25(blogs_fts, 10.0, 1.0)`);
  return (await q
    .select(fullColumns)
    .orderBy('blogs.created_at', 'desc')
    .orderBy('blogs.id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute()) as Blog[];
}

export async function countBlogs(db: Db, filter: BlogFilter): Promise<number> {
  // No join with categories: counting needs the blogs (and their index) only.
  const row = await applyFilter(db.selectFrom('blogs') as unknown as BlogQuery, filter)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number((row as { n: number }).n);
}

export function listTopViewed(db: Db, limit: number) {
  return db
    .selectFrom('blogs')
    .select(['id', 'title', 'created_at', 'clicks'])
    .orderBy('clicks', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

export function listRecent(db: Db, limit: number) {
  return db
    .selectFrom('blogs')
    .leftJoin('categories', 'categories.id', 'blogs.category_id')
    .select(['blogs.id', 'blogs.title', 'blogs.image', 'categories.name as category_name'])
    .orderBy('blogs.created_at', 'desc')
    .orderBy('blogs.id', 'desc')
    .limit(limit)
    .execute();
}

export function listBlogsWithPdf(db: Db) {
  return db
    .selectFrom('blogs')
    .select(['id', 'title', 'created_at', 'pdf_drive_link'])
    .where('pdf_drive_link', 'is not', null)
    .where('pdf_drive_link', '!=', '')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

export function listBlogIds(db: Db) {
  return db.selectFrom('blogs').select(['id', 'updated_at']).orderBy('id').execute();
}

/** Inserts the blog and its full-text row; call inside a transaction. */
export async function insertBlog(db: Db, input: BlogWrite, bodyText: string, now = new Date().toISOString()): Promise<number> {
  const { id } = await db
    .insertInto('blogs')
    .values({ ...input, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db.insertInto('blogs_fts').values({ rowid: id, title: input.title, body: bodyText }).execute();
  return id;
}

/** Updates the blog and its full-text row; call inside a transaction. */
export async function updateBlog(db: Db, id: number, input: BlogWrite, bodyText: string): Promise<boolean> {
  const result = await db
    .updateTable('blogs')
    .set({ ...input, updated_at: new Date().toISOString() })
    .where('id', '=', id)
    .executeTakeFirst();
  if (result.numUpdatedRows === 0n) return false;
  await db.deleteFrom('blogs_fts').where('rowid', '=', id).execute();
  await db.insertInto('blogs_fts').values({ rowid: id, title: input.title, body: bodyText }).execute();
  return true;
}

export async function deleteBlog(db: Db, id: number): Promise<boolean> {
  const result = await db.deleteFrom('blogs').where('id', '=', id).executeTakeFirst();
  await db.deleteFrom('blogs_fts').where('rowid', '=', id).execute();
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
