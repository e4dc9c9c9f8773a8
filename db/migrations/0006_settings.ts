import { type Kysely, sql } from 'kysely';

// Frozen in time: never edit a migration that has shipped; add a new one instead.

/**
 * The publisher's own site:
 * - `site_settings`: one row per setting (title, tagline, links, colour...), values as text; a
 *   missing row means the built-in default.
 * - `info_pages`: the About and Contact pages the admin writes (sanitized HTML plus the editor's
 *   source). The text before the last save is kept beside it (`previous_*`), so a later revisions
 *   table can take it over; no row means the built-in default text.
 * - `owner_setup`: the first-run setup token, one row at most, deleted when the owner is created.
 * - `is_demo` on blogs, categories and carousel slides: the demo content, removable in one step.
 *   Sites seeded before this migration have their demo marked by what only the seed writes:
 *   articles and slides whose image is a generated `/uploads/demo/` picture, and categories that
 *   hold articles and nothing but demo ones.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('site_settings')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('info_pages')
    .addColumn('slug', 'text', (c) => c.primaryKey().check(sql`slug in ('about', 'contact')`))
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('content_source', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('previous_content', 'text')
    .addColumn('previous_content_source', 'text')
    .addColumn('previous_updated_at', 'text')
    .execute();
  await db.schema
    .createTable('owner_setup')
    .addColumn('id', 'integer', (c) => c.primaryKey().check(sql`id = 1`))
    .addColumn('token', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  for (const table of ['blogs', 'categories', 'carousel_slides']) {
    await db.schema
      .alterTable(table)
      .addColumn('is_demo', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  }
  await sql`update blogs set is_demo = 1 where image like '/uploads/demo/%'`.execute(db);
  await sql`update carousel_slides set is_demo = 1 where image_url like '/uploads/demo/%'`.execute(db);
  await sql`
    update categories set is_demo = 1
    where exists (select 1 from blogs where blogs.category_id = categories.id)
      and not exists (select 1 from blogs where blogs.category_id = categories.id and blogs.is_demo = 0)
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['carousel_slides', 'categories', 'blogs']) {
    await db.schema.alterTable(table).dropColumn('is_demo').execute();
  }
  await db.schema.dropTable('owner_setup').ifExists().execute();
  await db.schema.dropTable('info_pages').ifExists().execute();
  await db.schema.dropTable('site_settings').ifExists().execute();
}
