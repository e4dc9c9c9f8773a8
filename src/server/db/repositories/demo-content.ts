import { sql } from 'kysely';
import type { Db } from '../client.ts';
import { isMentionedIn } from './mentions.ts';
import { deleteSearchRow } from './search.ts';

/** The demo content's marks (`is_demo`, migration 0006) and its removal. */

export interface DemoCounts {
  blogs: number;
  comments: number;
  slides: number;
  categories: number;
}

/** Marks rows the seed just wrote as demo content; call inside the seed's transaction. */
export async function markDemo(db: Db, ids: { blogs: number[]; categories: number[]; slides: number[] }): Promise<void> {
  if (ids.blogs.length) await db.updateTable('blogs').set({ is_demo: 1 }).where('id', 'in', ids.blogs).execute();
  if (ids.categories.length) await db.updateTable('categories').set({ is_demo: 1 }).where('id', 'in', ids.categories).execute();
  if (ids.slides.length) await db.updateTable('carousel_slides').set({ is_demo: 1 }).where('id', 'in', ids.slides).execute();
}

/** What a removal would take: demo articles (with all their comments), slides and categories. */
export async function countDemo(db: Db): Promise<DemoCounts> {
  const one = async (query: Promise<{ n: number } | undefined>) => Number((await query)?.n ?? 0);
  const [blogs, comments, slides, categories] = await Promise.all([
    one(
      db
        .selectFrom('blogs')
        .select(sql<number>`count(*)`.as('n'))
        .where('is_demo', '=', 1)
        .executeTakeFirst(),
    ),
    one(
      db
        .selectFrom('comments')
        .innerJoin('blogs', 'blogs.id', 'comments.blog_id')
        .select(sql<number>`count(*)`.as('n'))
        .where('blogs.is_demo', '=', 1)
        .executeTakeFirst(),
    ),
    one(
      db
        .selectFrom('carousel_slides')
        .select(sql<number>`count(*)`.as('n'))
        .where('is_demo', '=', 1)
        .executeTakeFirst(),
    ),
    one(
      db
        .selectFrom('categories')
        .select(sql<number>`count(*)`.as('n'))
        .where('is_demo', '=', 1)
        .executeTakeFirst(),
    ),
  ]);
  return { blogs, comments, slides, categories };
}

export interface RemovedDemo extends DemoCounts {
  blogIds: number[];
  categoryIds: number[];
  /** Image and PDF addresses the removed rows named, for the file cleanup after the commit. */
  files: string[];
  /** Demo categories kept because an article of the publisher's is in them. */
  keptCategories: number;
}

/**
 * Deletes the demo articles (their comments and search rows go with them), slides, and the demo
 * categories left empty; a demo category holding a publisher's article stays. Call inside a
 * transaction.
 */
export async function deleteDemo(db: Db): Promise<RemovedDemo> {
  const counts = await countDemo(db);
  const blogs = await db.selectFrom('blogs').select(['id', 'image', 'pdf_drive_link']).where('is_demo', '=', 1).execute();
  const slides = await db.selectFrom('carousel_slides').select(['id', 'image_url']).where('is_demo', '=', 1).execute();
  const blogIds = blogs.map((b) => b.id);
  for (const id of blogIds) await deleteSearchRow(db, id);
  if (blogIds.length) await db.deleteFrom('blogs').where('id', 'in', blogIds).execute();
  if (slides.length)
    await db
      .deleteFrom('carousel_slides')
      .where(
        'id',
        'in',
        slides.map((s) => s.id),
      )
      .execute();
  const categories = await db
    .selectFrom('categories')
    .select('id')
    .where('is_demo', '=', 1)
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('blogs').select('blogs.id').whereRef('blogs.category_id', '=', 'categories.id'))),
    )
    .execute();
  const categoryIds = categories.map((c) => c.id);
  if (categoryIds.length) await db.deleteFrom('categories').where('id', 'in', categoryIds).execute();
  const files = [...blogs.flatMap((b) => [b.image, b.pdf_drive_link]), ...slides.map((s) => s.image_url)].filter(
    (f): f is string => typeof f === 'string' && f !== '',
  );
  return {
    ...counts,
    categories: categoryIds.length,
    keptCategories: counts.categories - categoryIds.length,
    blogIds,
    categoryIds,
    files,
  };
}

/** Whether any remaining article or slide still shows a file of the demo folder. */
export function isDemoFolderReferenced(db: Db): Promise<boolean> {
  return isMentionedIn(db, '/uploads/demo/', ['blogs', 'carouselSlides']);
}
