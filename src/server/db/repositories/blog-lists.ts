import { sql } from 'kysely';
import type { Db } from '../client.ts';
import { fromBlogs, fullColumns, inIdOrder, type Blog, type BlogQuery, type BlogSummary } from './blogs.ts';
import { isPublicBlog } from './visibility.ts';
import { preparedQuery } from './prepared-query.ts';
import type { BlogStatus } from '../schema.ts';

/**
 * The lists of blogs the site shows: pages of summaries, search results, feeds, the site map's ids.
 * The short side lists (top viewed, recent, with a PDF, older and newer) are in blog-side-lists.ts.
 */

export interface BlogFilter {
  categoryId?: number | undefined;
  /** An FTS5 MATCH expression built by buildFtsQuery, never raw user text. */
  ftsQuery?: string | undefined;
  /** Admins' lists: every status (or the one asked for). Left out, only what readers may see. */
  admin?: { status?: BlogStatus | undefined; search?: string | undefined } | undefined;
}

// The excerpt comes from the full-text index's copy of the text, so no HTML is parsed per row.
export const summaryColumns = [
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

function applyFilter(query: BlogQuery, filter: BlogFilter): BlogQuery {
  let q = query;
  if (!filter.admin) q = q.where(isPublicBlog());
  else if (filter.admin.status) q = q.where('blogs.status', '=', filter.admin.status);
  if (filter.categoryId !== undefined) q = q.where('blogs.category_id', '=', filter.categoryId);
  if (filter.ftsQuery !== undefined && filter.admin) {
    // The index holds only public articles, so an admin's search also looks through the title
    // and text of unpublished ones (few, and only for the admin list).
    const like = `%${(filter.admin.search ?? '').replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    q = q.where(
      sql<boolean>`(blogs.id in (select rowid from blogs_fts where blogs_fts match ${filter.ftsQuery}) or (blogs.status <> 'published' and (blogs.title like ${like} escape '\\' or blogs.content like ${like} escape '\\')))`,
    );
  } else if (filter.ftsQuery !== undefined) {
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
      .$if(!filter.admin, (ids) => ids.where(isPublicBlog()))
      .$if(filter.admin?.status !== undefined, (ids) => ids.where('blogs.status', '=', filter.admin!.status!))
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

/**
 * Every public article's id in list order (newest first), of one category or of the whole site:
 * read once per database state by the reader (read-cache.ts), so page N of a list is a slice
 * instead of an OFFSET walk and a count. Answered from the list index alone.
 */
export async function listPublicBlogIds(db: Db, categoryId: number | null): Promise<number[]> {
  const rows = await db
    .selectFrom('blogs')
    .select('blogs.id')
    .$if(categoryId !== null, (ids) => ids.where('blogs.category_id', '=', categoryId!))
    .where(isPublicBlog())
    .orderBy('blogs.created_at', 'desc')
    .orderBy('blogs.id', 'desc')
    .execute();
  return rows.map((row) => row.id);
}

const summariesByIds = preparedQuery({
  build: (db: Db, ids: number[]) =>
    fromBlogs(db)
      .select(summaryColumns)
      .select(sql<string>`(select substr(body, 1, 220) from blogs_fts where blogs_fts.rowid = blogs.id)`.as('excerpt'))
      .where('blogs.id', 'in', ids)
      .orderBy('blogs.created_at', 'desc')
      .orderBy('blogs.id', 'desc'),
  parameters: (ids) => ids,
  shape: (ids) => ids.length,
});

/** The summaries of these articles (a slice of listPublicBlogIds), in list order. */
export async function listBlogSummariesByIds(db: Db, ids: number[]): Promise<BlogSummary[]> {
  if (ids.length === 0) return [];
  const rows = await summariesByIds(db, ids);
  return rows.map((row) => ({ ...row, excerpt: (row as { excerpt: string | null }).excerpt ?? '' })) as BlogSummary[];
}

export async function listBlogsFull(db: Db, filter: BlogFilter, page: { limit: number; offset: number }): Promise<Blog[]> {
  let q = applyFilter(fromBlogs(db), filter);
  if (filter.ftsQuery !== undefined && !filter.admin) q = q.orderBy(sql`bm25(blogs_fts, 10.0, 1.0)`);
  return (await q
    .select(fullColumns)
    .orderBy('blogs.created_at', 'desc')
    .orderBy('blogs.id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute()) as Blog[];
}

/** Full public blogs with these ids, in the order given (a page of the API's search results). */
export async function findPublicBlogsByIds(db: Db, ids: number[]): Promise<Blog[]> {
  if (ids.length === 0) return [];
  return inIdOrder(
    ids,
    (await fromBlogs(db).select(fullColumns).where('blogs.id', 'in', ids).where(isPublicBlog()).execute()) as Blog[],
  );
}

export async function countBlogs(db: Db, filter: BlogFilter): Promise<number> {
  // No join with categories: counting needs the blogs (and their index) only.
  const row = await applyFilter(db.selectFrom('blogs') as unknown as BlogQuery, filter)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number((row as { n: number }).n);
}

/** The stored HTML of these articles (the feed's full text), by id; only what readers may see. */
export function listPublicContents(db: Db, ids: readonly number[]): Promise<{ id: number; content: string }[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('blogs')
    .select(['blogs.id', 'blogs.content'])
    .where('blogs.id', 'in', [...ids])
    .where(isPublicBlog())
    .execute();
}

export function listBlogIds(db: Db) {
  return db.selectFrom('blogs').select(['id', 'updated_at']).where(isPublicBlog()).orderBy('id').execute();
}

/** The list cards of these blogs (search results), in the order given, with the indexed text's opening as excerpt. */
export async function findSummariesByIds(db: Db, ids: number[]): Promise<BlogSummary[]> {
  if (ids.length === 0) return [];
  const rows = (await fromBlogs(db)
    .select(summaryColumns)
    .select(sql<string>`(select substr(body, 1, 220) from blogs_fts where blogs_fts.rowid = blogs.id)`.as('excerpt'))
    .where('blogs.id', 'in', ids)
    // The index holds only public articles; this keeps one unpublished since it was ranked out too.
    .where(isPublicBlog())
    .execute()) as unknown as BlogSummary[];
  return inIdOrder(
    ids,
    rows.map((row) => ({ ...row, excerpt: row.excerpt ?? '' })),
  );
}
