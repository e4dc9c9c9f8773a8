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

/**
 * Saves the page, moving the text it had into the `previous_*` columns (the one earlier version
 * kept until a revisions table takes over). `previous` is the text shown before this save, which
 * for a page never saved is the default text.
 */
export async function saveInfoPage(
  db: Db,
  page: { slug: InfoPageSlug; content: string; content_source: string | null },
  previous: { content: string; content_source: string | null; updated_at: string | null },
  now = new Date().toISOString(),
): Promise<void> {
  const row = {
    ...page,
    updated_at: now,
    previous_content: previous.content,
    previous_content_source: previous.content_source,
    previous_updated_at: previous.updated_at,
  };
  await db
    .insertInto('info_pages')
    .values(row)
    .onConflict((oc) => oc.column('slug').doUpdateSet(row))
    .execute();
}
