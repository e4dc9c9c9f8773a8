import { type Kysely, sql } from 'kysely';

// Frozen in time: never edit a migration that has shipped; add a new one instead.

/**
 * Accounts that recover:
 * - `mail_queue`: every outgoing mail, written by the request that wants it and sent later by
 *   one background sender, so a mail server that is down holds no request and loses nothing.
 *   `status` is queued, sent or failed (gave up after its attempts); `next_attempt_at` is when
 *   it may be tried again (ISO time); `claimed_until` keeps a sender's claim from a second one.
 * - `account_tokens`: the single-use links mailed to a reader (a password reset, a new email's
 *   confirmation). Only SHA-256 of the token is kept; `used_at` tells a reused link from an
 *   unknown one. `new_email` is the address an email change is waiting to confirm.
 * - `sessions.user_agent`: which browser a session was made by, for the reader's list of sessions.
 * - `comments.user_id`: the account a signed-in reader commented from (null for comments made
 *   without one, and for every comment before this migration), so deleting an account can rename
 *   or remove its comments as the owner chose.
 * - `totp_secrets`: an admin's two-factor secret (RFC 6238, base32), confirmed once a code from it
 *   was entered; `last_step` is the newest time step a code was accepted for, so no code works twice.
 * - `recovery_codes`: ten single-use codes per enrolment, SHA-256 stored.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('mail_queue')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('to_address', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('text_body', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('queued')
        .check(sql`status in ('queued', 'sent', 'failed')`),
    )
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'text', (c) => c.notNull())
    .addColumn('claimed_until', 'text')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('sent_at', 'text')
    .execute();
  await db.schema.createIndex('mail_queue_due').on('mail_queue').columns(['status', 'next_attempt_at']).execute();

  await db.schema
    .createTable('account_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('purpose', 'text', (c) => c.notNull().check(sql`purpose in ('password_reset', 'email_change')`))
    .addColumn('new_email', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute();
  await db.schema.createIndex('account_tokens_user').on('account_tokens').columns(['user_id', 'purpose']).execute();

  await db.schema.alterTable('sessions').addColumn('user_agent', 'text').execute();
  await db.schema
    .alterTable('comments')
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .execute();
  await db.schema
    .createIndex('comments_user')
    .on('comments')
    .column('user_id')
    .where(sql.ref('user_id'), 'is not', null)
    .execute();

  await db.schema
    .createTable('totp_secrets')
    .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('confirmed_at', 'text')
    .addColumn('last_step', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable('recovery_codes')
    .addColumn('code_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('used_at', 'text')
    .execute();
  await db.schema.createIndex('recovery_codes_user').on('recovery_codes').column('user_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('recovery_codes').ifExists().execute();
  await db.schema.dropTable('totp_secrets').ifExists().execute();
  await db.schema.dropIndex('comments_user').ifExists().execute();
  await db.schema.alterTable('comments').dropColumn('user_id').execute();
  await db.schema.alterTable('sessions').dropColumn('user_agent').execute();
  await db.schema.dropTable('account_tokens').ifExists().execute();
  await db.schema.dropTable('mail_queue').ifExists().execute();
}
