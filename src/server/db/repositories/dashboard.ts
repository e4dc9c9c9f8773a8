import { sql } from 'kysely';
import type { Db } from '../client.ts';

/** What the admin dashboard reads: views per day, the week's top articles, latest comments, counts. */

/** Total views per UTC day from `fromDay` (YYYY-MM-DD) on; days without views are absent. */
export function viewsPerDay(db: Db, fromDay: string): Promise<Array<{ day: string; views: number }>> {
  return db
    .selectFrom('blog_daily_views')
    .select(['day', (eb) => eb.fn.sum<number>('views').as('views')])
    .where('day', '>=', fromDay)
    .groupBy('day')
    .orderBy('day')
    .execute();
}

/** The most viewed articles since `fromDay`. */
export function topArticlesSince(db: Db, fromDay: string, limit: number) {
  return db
    .selectFrom('blog_daily_views')
    .innerJoin('blogs', 'blogs.id', 'blog_daily_views.blog_id')
    .select(['blogs.id', 'blogs.title', (eb) => eb.fn.sum<number>('blog_daily_views.views').as('views')])
    .where('blog_daily_views.day', '>=', fromDay)
    .groupBy('blogs.id')
    .orderBy('views', 'desc')
    .orderBy('blogs.id', 'desc')
    .limit(limit)
    .execute();
}

/** The newest comments of every status, with their article's title. */
export function latestComments(db: Db, limit: number) {
  return db
    .selectFrom('comments')
    .innerJoin('blogs', 'blogs.id', 'comments.blog_id')
    .select([
      'comments.id',
      'comments.blog_id',
      'comments.username',
      'comments.comment',
      'comments.status',
      'comments.created_at',
      'blogs.title as blog_title',
    ])
    .orderBy('comments.id', 'desc')
    .limit(limit)
    .execute();
}

/** How many articles have each status. */
export async function countByStatus(db: Db): Promise<Record<'published' | 'draft' | 'scheduled', number>> {
  const rows = await db
    .selectFrom('blogs')
    .select(['status', sql<number>`count(*)`.as('n')])
    .groupBy('status')
    .execute();
  const counts = { published: 0, draft: 0, scheduled: 0 };
  for (const row of rows) counts[row.status] = Number(row.n);
  return counts;
}
