import { type Kysely, sql } from 'kysely';

// Frozen in time: never edit a migration that has shipped; add a new one instead.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('username', 'text', (c) =>
      c
        .notNull()
        .unique()
        .modifyEnd(sql`collate nocase`),
    )
    .addColumn('email', 'text', (c) =>
      c
        .notNull()
        .unique()
        .modifyEnd(sql`collate nocase`),
    )
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('is_admin', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`is_admin in (0, 1)`),
    )
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('secret_hash', 'blob', (c) => c.notNull())
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .addColumn('last_verified_at', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sessions_user_id').on('sessions').column('user_id').execute();

  await db.schema
    .createTable('categories')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('name', 'text', (c) =>
      c
        .notNull()
        .unique()
        .modifyEnd(sql`collate nocase`),
    )
    .addColumn('sequence', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('blogs')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('author', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('content_source', 'text')
    .addColumn('category_id', 'integer', (c) => c.references('categories.id').onDelete('set null'))
    .addColumn('image', 'text')
    .addColumn('video_link', 'text')
    .addColumn('is_video', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`is_video in (0, 1)`),
    )
    .addColumn('pdf_drive_link', 'text')
    .addColumn('pay_link', 'text')
    .addColumn('form_name', 'text')
    .addColumn('form_link', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('clicks', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('blogs_created').on('blogs').columns(['created_at', 'id']).execute();
  await db.schema.createIndex('blogs_category_created').on('blogs').columns(['category_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('blogs_clicks').on('blogs').columns(['clicks', 'id']).execute();

  await db.schema
    .createTable('comments')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('blog_id', 'integer', (c) => c.notNull().references('blogs.id').onDelete('cascade'))
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('comment', 'text', (c) => c.notNull())
    .addColumn('contact', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('comments_blog').on('comments').columns(['blog_id', 'id']).execute();

  await db.schema
    .createTable('carousel_slides')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('image_url', 'text', (c) => c.notNull())
    .addColumn('alt_text', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  // Full-text index over the title and the text of the content (tags stripped by the blog
  // repository, which keeps it in step inside the same transaction as every blog write).
  await sql`create virtual table blogs_fts using fts5(title, body, tokenize = 'unicode61 remove_diacritics 2')`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists blogs_fts`.execute(db);
  for (const table of ['carousel_slides', 'comments', 'blogs', 'categories', 'sessions', 'users']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
