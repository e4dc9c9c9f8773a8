import type { Db } from '../client.ts';
import { isPublicBlog } from './visibility.ts';
import { listPublicPdfBlogIds } from './blog-side-lists.ts';

// Only what readers may see: drafts and not-yet-due articles have no public page and fill no list.

/** What it takes to list every public page: each blog id, and how many blogs each category has. */
export async function listSitePageFacts(db: Db) {
  const blogIds = (await db.selectFrom('blogs').select('id').where(isPublicBlog()).orderBy('id').execute()).map((row) => row.id);
  const perCategory = await db
    .selectFrom('categories')
    .leftJoin('blogs', (join) => join.onRef('blogs.category_id', '=', 'categories.id').on(isPublicBlog()))
    .select(['categories.id', (eb) => eb.fn.count<number>('blogs.id').as('blogs')])
    .groupBy('categories.id')
    .orderBy('categories.id')
    .execute();
  return {
    blogIds,
    perCategory: perCategory.map((row) => ({ id: row.id, blogs: Number(row.blogs) })),
    /** Public articles with a PDF: the Downloads pages list them. */
    pdfBlogs: (await listPublicPdfBlogIds(db)).length,
  };
}

/** A cheap fingerprint of the top-viewed list, to notice when it has changed. */
export async function topViewedFingerprint(db: Db, limit: number): Promise<string> {
  const rows = await db
    .selectFrom('blogs')
    .select(['id', 'clicks'])
    .where(isPublicBlog())
    .orderBy('clicks', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((row) => `${row.id}:${row.clicks}`).join(',');
}

/** The ids of the newest blogs, overall or in one category (what page 1 of a list shows). */
export async function newestBlogIds(db: Db, limit: number, categoryId?: number): Promise<number[]> {
  const rows = await db
    .selectFrom('blogs')
    .select('id')
    .where(isPublicBlog())
    .$if(categoryId !== undefined, (q) => q.where('category_id', '=', categoryId!))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((row) => row.id);
}

/** The ids in the top-viewed list. */
export async function topViewedIds(db: Db, limit: number): Promise<number[]> {
  const rows = await db
    .selectFrom('blogs')
    .select('id')
    .where(isPublicBlog())
    .orderBy('clicks', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((row) => row.id);
}

/** Whether an article exists for readers (a deleted or unpublished one is in no list). */
export async function blogExists(db: Db, id: number): Promise<boolean> {
  return (await db.selectFrom('blogs').select('id').where('id', '=', id).where(isPublicBlog()).executeTakeFirst()) !== undefined;
}
