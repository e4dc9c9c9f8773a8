import { type Kysely, sql } from 'kysely';

// Frozen in time: never edit a migration that has shipped; add a new one instead.

/**
 * A reader's library: the articles they saved, where they stopped in the articles they read
 * (`position`, 0 to 1 of the article's length), and which comments are theirs. Both tables go
 * with the account or the article (cascade). Which comments are a reader's is
 * `comments.user_id` (migration 0013), null for comments written signed out and for every
 * comment from before it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('saved_articles')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('blog_id', 'integer', (c) => c.notNull().references('blogs.id').onDelete('cascade'))
    .addColumn('saved_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('saved_articles_pk', ['user_id', 'blog_id'])
    .execute();
  await db.schema.createIndex('saved_articles_blog').on('saved_articles').column('blog_id').execute();
  await db.schema
    .createTable('reading_progress')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('blog_id', 'integer', (c) => c.notNull().references('blogs.id').onDelete('cascade'))
    .addColumn('position', 'real', (c) => c.notNull().check(sql`position >= 0 and position <= 1`))
    .addColumn('read_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('reading_progress_pk', ['user_id', 'blog_id'])
    .execute();
  await db.schema.createIndex('reading_progress_recent').on('reading_progress').columns(['user_id', 'read_at']).execute();
  await db.schema.createIndex('reading_progress_blog').on('reading_progress').column('blog_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('reading_progress').ifExists().execute();
  await db.schema.dropTable('saved_articles').ifExists().execute();
}
