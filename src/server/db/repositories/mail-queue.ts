import type { Db } from '../client.ts';
import type { MailQueueTable } from '../schema.ts';
import type { Selectable } from 'kysely';

export type QueuedMail = Selectable<MailQueueTable>;

export interface NewMail {
  to: string;
  subject: string;
  text: string;
  /** What the mail is for (password_reset, email_change...): for the log and the admin. */
  kind: string;
}

export async function insertMail(db: Db, mail: NewMail, now = new Date().toISOString()): Promise<void> {
  await db
    .insertInto('mail_queue')
    .values({
      to_address: mail.to,
      subject: mail.subject,
      text_body: mail.text,
      kind: mail.kind,
      next_attempt_at: now,
      created_at: now,
    })
    .execute();
}

/**
 * Claims up to `limit` queued mails that are due and not claimed by another sender (or whose
 * claim ran out: a sender that died mid-send), in one UPDATE, so two senders never take the same
 * mail. Each claim counts as an attempt.
 */
export function claimDueMail(db: Db, input: { now: string; claimUntil: string; limit: number }): Promise<QueuedMail[]> {
  return db
    .updateTable('mail_queue')
    .set((eb) => ({ claimed_until: input.claimUntil, attempts: eb('attempts', '+', 1) }))
    .where(
      'id',
      'in',
      db
        .selectFrom('mail_queue')
        .select('id')
        .where('status', '=', 'queued')
        .where('next_attempt_at', '<=', input.now)
        .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', input.now)]))
        .orderBy('next_attempt_at')
        .limit(input.limit),
    )
    .returningAll()
    .execute();
}

export async function markMailSent(db: Db, id: number, now: string): Promise<void> {
  await db
    .updateTable('mail_queue')
    .set({ status: 'sent', sent_at: now, claimed_until: null, last_error: null })
    .where('id', '=', id)
    .execute();
}

/** A failed attempt: tried again at `retryAt`, or given up (`failed`) when that is null. */
export async function markMailFailed(db: Db, id: number, input: { error: string; retryAt: string | null }): Promise<void> {
  await db
    .updateTable('mail_queue')
    .set({
      status: input.retryAt === null ? 'failed' : 'queued',
      next_attempt_at: input.retryAt ?? new Date().toISOString(),
      claimed_until: null,
      last_error: input.error.slice(0, 500),
    })
    .where('id', '=', id)
    .execute();
}

/** When the next queued mail falls due, or null when none waits. */
export async function nextMailDueAt(db: Db): Promise<string | null> {
  const row = await db
    .selectFrom('mail_queue')
    .select((eb) => eb.fn.min('next_attempt_at').as('due'))
    .where('status', '=', 'queued')
    .executeTakeFirst();
  return row?.due ?? null;
}

/** Counts by status, for the admin's settings screen. */
export async function countMailByStatus(db: Db): Promise<Record<'queued' | 'sent' | 'failed', number>> {
  const rows = await db
    .selectFrom('mail_queue')
    .select(['status', (eb) => eb.fn.countAll<number>().as('count')])
    .groupBy('status')
    .execute();
  const counts = { queued: 0, sent: 0, failed: 0 };
  for (const row of rows) counts[row.status] = Number(row.count);
  return counts;
}

/** Sent mails older than `before` go (their links are long expired); failed ones stay for the admin. */
export async function deleteSentMailBefore(db: Db, before: string): Promise<void> {
  await db.deleteFrom('mail_queue').where('status', '=', 'sent').where('sent_at', '<', before).execute();
}
