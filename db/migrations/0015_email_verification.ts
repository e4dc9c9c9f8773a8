import { type Kysely, sql } from 'kysely';

// Frozen in time: never edit a migration that has shipped; add a new one instead.

/**
 * Email verification for new readers (an owner's setting):
 * - `users.email_unconfirmed`: 1 for a reader who signed up while the setting was on and has not
 *   opened the link mailed to them yet (such a reader cannot log in while the setting stays on).
 *   Every account from before is 0: verification is asked of new readers only.
 * - `account_tokens.purpose` also takes 'email_verify' (the sign-up's link). SQLite cannot change
 *   a CHECK, so the table is made again with the same rows.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('email_unconfirmed', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('account_tokens_next')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('purpose', 'text', (c) => c.notNull().check(sql`purpose in ('password_reset', 'email_change', 'email_verify')`))
    .addColumn('new_email', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute();
  await sql`insert into account_tokens_next select token_hash, user_id, purpose, new_email, created_at, expires_at, used_at from account_tokens`.execute(
    db,
  );
  await db.schema.dropTable('account_tokens').execute();
  await sql`alter table account_tokens_next rename to account_tokens`.execute(db);
  await db.schema.createIndex('account_tokens_user').on('account_tokens').columns(['user_id', 'purpose']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`delete from account_tokens where purpose = 'email_verify'`.execute(db);
  await db.schema
    .createTable('account_tokens_prev')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('purpose', 'text', (c) => c.notNull().check(sql`purpose in ('password_reset', 'email_change')`))
    .addColumn('new_email', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute();
  await sql`insert into account_tokens_prev select token_hash, user_id, purpose, new_email, created_at, expires_at, used_at from account_tokens`.execute(
    db,
  );
  await db.schema.dropTable('account_tokens').execute();
  await sql`alter table account_tokens_prev rename to account_tokens`.execute(db);
  await db.schema.createIndex('account_tokens_user').on('account_tokens').columns(['user_id', 'purpose']).execute();
  await db.schema.alterTable('users').dropColumn('email_unconfirmed').execute();
}
