import { type Kysely, sql } from 'kysely';

// Frozen in time: never edit a migration that has shipped; add a new one instead.

/**
 * About and Contact keep revisions as articles do: `info_page_revisions` holds a row per save
 * (the text as saved, who, when, what kind of save), pruned to REVISIONS_KEEP per page by the
 * service. It takes over from `info_pages.previous_*`, the single earlier version 0006 kept:
 * - the kept earlier text becomes one revision (`builtin` when it was the built-in text, which
 *   0006 marks by a null `previous_updated_at`; `update` otherwise),
 * - the current text becomes the newest revision, so the next save does not lose it,
 * and the `previous_*` columns are dropped. Who saved them was never recorded: those rows name
 * "an admin" (0006 let only admins save).
 */

const MIGRATED_SAVER = 'an admin';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('info_page_revisions')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('slug', 'text', (c) => c.notNull().check(sql`slug in ('about', 'contact')`))
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('content_source', 'text')
    .addColumn('user_id', 'integer')
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('info_page_revisions_slug').on('info_page_revisions').columns(['slug', 'id']).execute();

  // The earlier text first, so ids keep the order the texts were saved in.
  await sql`
    insert into info_page_revisions (slug, content, content_source, user_id, username, action, created_at)
    select slug, previous_content, previous_content_source, null, ${MIGRATED_SAVER},
      case when previous_updated_at is null then 'builtin' else 'update' end,
      coalesce(previous_updated_at, updated_at)
    from info_pages where previous_content is not null order by slug
  `.execute(db);
  await sql`
    insert into info_page_revisions (slug, content, content_source, user_id, username, action, created_at)
    select slug, content, content_source, null, ${MIGRATED_SAVER}, 'update', updated_at
    from info_pages order by slug
  `.execute(db);

  for (const column of ['previous_content', 'previous_content_source', 'previous_updated_at']) {
    await db.schema.alterTable('info_pages').dropColumn(column).execute();
  }
}

/** Back to one earlier version: the revision before the newest becomes `previous_*`. */
export async function down(db: Kysely<unknown>): Promise<void> {
  for (const column of ['previous_content', 'previous_content_source', 'previous_updated_at']) {
    await db.schema.alterTable('info_pages').addColumn(column, 'text').execute();
  }
  await sql`
    update info_pages set
      previous_content = earlier.content,
      previous_content_source = earlier.content_source,
      previous_updated_at = case when earlier.action = 'builtin' then null else earlier.created_at end
    from (
      select slug, content, content_source, action, created_at,
        row_number() over (partition by slug order by id desc) as place
      from info_page_revisions
    ) as earlier
    where earlier.slug = info_pages.slug and earlier.place = 2
  `.execute(db);
  await db.schema.dropTable('info_page_revisions').ifExists().execute();
}
