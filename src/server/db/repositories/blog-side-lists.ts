import type { Db } from '../client.ts';
import { isPublicBlog } from './visibility.ts';

/**
 * The short lists beside the main ones: the most viewed and the newest articles (the home page's
 * side lists and the API's), the articles with a PDF (the download page), and an article's older
 * and newer neighbours. Only what readers may see.
 */

export function listTopViewed(db: Db, limit: number) {
  return db
    .selectFrom('blogs')
    .select(['id', 'title', 'created_at', 'clicks'])
    .where(isPublicBlog())
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
    .where(isPublicBlog())
    .orderBy('blogs.created_at', 'desc')
    .orderBy('blogs.id', 'desc')
    .limit(limit)
    .execute();
}

/**
 * The public articles with a PDF, newest first (the first `limit`, or all): their ids only, from the
 * index of those articles alone (migration 0016; its WHERE must stay the index's for SQLite to use it).
 */
export async function listPublicPdfBlogIds(db: Db, limit?: number): Promise<number[]> {
  const rows = await db
    .selectFrom('blogs')
    .select('id')
    .where('pdf_drive_link', 'is not', null)
    .where('pdf_drive_link', '!=', '')
    .where(isPublicBlog())
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .$if(limit !== undefined, (q) => q.limit(limit!))
    .execute();
  return rows.map((row) => row.id);
}

/** The Downloads rows of these articles (a slice of listPublicPdfBlogIds), in list order. */
export async function listDownloadRows(db: Db, ids: number[]) {
  if (ids.length === 0) return [];
  return db
    .selectFrom('blogs')
    .select(['id', 'title', 'created_at', 'pdf_drive_link'])
    .where('id', 'in', ids)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

export interface AdjacentBlog {
  id: number;
  title: string;
}

/**
 * The public articles just before and after one in the lists' order (newest first: created_at,
 * then id), in the whole site or in one category: what the article page's Older and Newer links
 * show. The article itself need not be public (its place is what counts). The place is compared
 * as a row value, (created_at, id): SQLite seeks the index to it. Written as `created_at < ? or
 * (created_at = ? and id < ?)` it scanned the index from the newest article down, 4-9 ms a page at
 * 100,000 articles, which made the pre-render slower the larger the site.
 */
export async function findAdjacentBlogs(
  db: Db,
  at: { id: number; created_at: string },
  categoryId: number | null = null,
  now = new Date().toISOString(),
): Promise<{ older: AdjacentBlog | null; newer: AdjacentBlog | null }> {
  const base = () =>
    db
      .selectFrom('blogs')
      .select(['blogs.id', 'blogs.title'])
      .where(isPublicBlog('blogs', now))
      .$if(categoryId !== null, (q) => q.where('blogs.category_id', '=', categoryId!))
      .limit(1);
  const [older, newer] = await Promise.all([
    base()
      .where((eb) => eb(eb.refTuple('blogs.created_at', 'blogs.id'), '<', eb.tuple(at.created_at, at.id)))
      .orderBy('blogs.created_at', 'desc')
      .orderBy('blogs.id', 'desc')
      .executeTakeFirst(),
    base()
      .where((eb) => eb(eb.refTuple('blogs.created_at', 'blogs.id'), '>', eb.tuple(at.created_at, at.id)))
      .orderBy('blogs.created_at', 'asc')
      .orderBy('blogs.id', 'asc')
      .executeTakeFirst(),
  ]);
  return { older: older ?? null, newer: newer ?? null };
}
