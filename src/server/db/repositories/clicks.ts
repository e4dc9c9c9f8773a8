import type { Db } from '../client.ts';
import { isPublicBlog } from './visibility.ts';

/** View counts: a cheap existence check per first view, and the batched increments. */

export async function blogExists(db: Db, id: number): Promise<boolean> {
  // Only articles readers can open count views (a draft has no public page).
  return (await db.selectFrom('blogs').select('id').where('id', '=', id).where(isPublicBlog()).executeTakeFirst()) !== undefined;
}

/**
 * Adds each blog's counted views in one transaction, to its total and to its count for the day
 * (UTC, the dashboard's views per day); blogs deleted meanwhile are skipped.
 */
export async function addClicks(
  db: Db,
  counts: ReadonlyMap<number, number>,
  day = new Date().toISOString().slice(0, 10),
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (const [id, count] of counts) {
      const result = await trx
        .updateTable('blogs')
        .set((eb) => ({ clicks: eb('clicks', '+', count) }))
        .where('id', '=', id)
        .executeTakeFirst();
      if (result.numUpdatedRows === 0n) continue;
      await trx
        .insertInto('blog_daily_views')
        .values({ blog_id: id, day, views: count })
        .onConflict((oc) =>
          oc.columns(['blog_id', 'day']).doUpdateSet((eb) => ({ views: eb('blog_daily_views.views', '+', count) })),
        )
        .execute();
    }
  });
}

/** Writes a blog's views for past days (the demo's history); its total is set separately. */
export async function insertDailyViews(db: Db, id: number, days: ReadonlyArray<{ day: string; views: number }>): Promise<void> {
  if (days.length === 0) return;
  await db
    .insertInto('blog_daily_views')
    .values(days.map((d) => ({ blog_id: id, day: d.day, views: d.views })))
    .execute();
}
