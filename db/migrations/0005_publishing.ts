import { type Kysely, sql } from 'kysely';

// Frozen in time: never edit a migration that has shipped; add a new one instead.

/**
 * Publishing: an article is `published` (every existing one), a `draft`, or `scheduled` for
 * `publish_at` (ISO 8601 UTC). Only published articles, and scheduled ones that are due, reach
 * readers. Every save keeps a revision (all fields, who, when), and views are also counted per
 * article per day for the admin dashboard.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('blogs')
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('published')
        .check(sql`status in ('published', 'draft', 'scheduled')`),
    )
    .execute();
  await db.schema.alterTable('blogs').addColumn('publish_at', 'text').execute();
  // The scheduler's question: which scheduled articles are due, and when is the next one.
  await db.schema.createIndex('blogs_status_publish_at').on('blogs').columns(['status', 'publish_at']).execute();

  await db.schema
    .createTable('blog_revisions')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('blog_id', 'integer', (c) => c.notNull().references('blogs.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('content_source', 'text')
    .addColumn('category_id', 'integer')
    .addColumn('image', 'text')
    .addColumn('video_link', 'text')
    .addColumn('is_video', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('pdf_drive_link', 'text')
    .addColumn('pay_link', 'text')
    .addColumn('form_name', 'text')
    .addColumn('form_link', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('publish_at', 'text')
    .addColumn('user_id', 'integer')
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('blog_revisions_blog').on('blog_revisions').columns(['blog_id', 'id']).execute();

  await db.schema
    .createTable('blog_daily_views')
    .addColumn('blog_id', 'integer', (c) => c.notNull().references('blogs.id').onDelete('cascade'))
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('views', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('blog_daily_views_pk', ['blog_id', 'day'])
    .execute();
  await db.schema.createIndex('blog_daily_views_day').on('blog_daily_views').columns(['day']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('blog_daily_views').ifExists().execute();
  await db.schema.dropTable('blog_revisions').ifExists().execute();
  // Unpublished articles were never public: they go with the columns that kept them hidden.
  await sql`delete from blogs where status <> 'published'`.execute(db);
  await db.schema.dropIndex('blogs_status_publish_at').ifExists().execute();
  await db.schema.alterTable('blogs').dropColumn('publish_at').execute();
  await db.schema.alterTable('blogs').dropColumn('status').execute();
}
