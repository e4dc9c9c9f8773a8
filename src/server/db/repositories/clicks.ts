import type { Db } from '../client.ts';
import { isPublicBlog } from './visibility.ts';

/** View counts: a cheap existence check per first view, and the batched increments. */

export async function blogExists(db: Db, id: number): Promise<boolean> {
  // Only articles readers can open count views (a draft has no public page).
  return (await db.selectFrom('blogs').select('id').where('id', '=', id).where(isPublicBlog()).executeTakeFirst()) !== undefined;
}

/** Adds each blog's counted views in one transaction; blogs deleted meanwhile are skipped. */
export async function addClicks(db: Db, counts: ReadonlyMap<number, number>): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (const [id, count] of counts) {
      await trx
        .updateTable('blogs')
        .set((eb) => ({ clicks: eb('clicks', '+', count) }))
        .where('id', '=', id)
        .execute();
    }
  });
}
