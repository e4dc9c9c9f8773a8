import type { Db } from '../client.ts';
import type { InfoPageSlug } from '../schema.ts';

export interface InfoPageRow {
  slug: InfoPageSlug;
  content: string;
  content_source: string | null;
  updated_at: string;
}

/** About or Contact as the admin last saved it (migration 0006), or undefined for the default text. */
export function findInfoPage(db: Db, slug: InfoPageSlug): Promise<InfoPageRow | undefined> {
  return db
    .selectFrom('info_pages')
    .select(['slug', 'content', 'content_source', 'updated_at'])
    .where('slug', '=', slug)
    .executeTakeFirst();
}

/** Saves the page's text (its revision is recorded beside it by the service, in the same transaction). */
export async function saveInfoPage(
  db: Db,
  page: { slug: InfoPageSlug; content: string; content_source: string | null },
  now = new Date().toISOString(),
): Promise<void> {
  const row = { ...page, updated_at: now };
  await db
    .insertInto('info_pages')
    .values(row)
    .onConflict((oc) => oc.column('slug').doUpdateSet(row))
    .execute();
}
