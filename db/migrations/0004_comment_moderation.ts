import { type Kysely, sql } from 'kysely';

// Frozen in time: never edit a migration that has shipped; add a new one instead.

/**
 * Comment moderation: a comment that trips a spam rule is stored as `pending` (or marked `spam`
 * by an admin) and only `approved` comments reach readers. Existing comments were all public, so
 * they become `approved`. `held_reason` says which rule held it; `text_key` is a hash of the
 * normalised text, so repeats are found through an index. The admin's word blocklist is a table;
 * `comment_settings` keeps the key that signs the comment form's timing token (shared by every
 * serving process).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('comments')
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('approved')
        .check(sql`status in ('approved', 'pending', 'spam')`),
    )
    .execute();
  await db.schema.alterTable('comments').addColumn('held_reason', 'text').execute();
  await db.schema.alterTable('comments').addColumn('text_key', 'text').execute();
  await db.schema.createIndex('comments_status').on('comments').columns(['status', 'id']).execute();
  await db.schema.createIndex('comments_text_key').on('comments').columns(['text_key', 'created_at']).execute();

  await db.schema
    .createTable('comment_blocklist')
    .addColumn('word', 'text', (c) => c.primaryKey())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('comment_settings')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('comment_settings').ifExists().execute();
  await db.schema.dropTable('comment_blocklist').ifExists().execute();
  // Held comments were never public: they go with the columns that held them.
  await sql`delete from comments where status <> 'approved'`.execute(db);
  await db.schema.dropIndex('comments_text_key').ifExists().execute();
  await db.schema.dropIndex('comments_status').ifExists().execute();
  await db.schema.alterTable('comments').dropColumn('text_key').execute();
  await db.schema.alterTable('comments').dropColumn('held_reason').execute();
  await db.schema.alterTable('comments').dropColumn('status').execute();
}
