import type { AppContext } from '../context.ts';
import type { Db } from '../db/client.ts';
import { insertMail, type NewMail } from '../db/repositories/mail-queue.ts';

/**
 * Queues a mail in the database (inside the caller's transaction when given one) and wakes the
 * sender when it runs in this process (`app.mailSender`, the lead serving process; the others'
 * mail waits for its poll); the request never waits for the mail server. Answers false, queueing
 * nothing, when mail is off (no SMTP_URL).
 */
export async function queueMail(app: AppContext, mail: NewMail, db: Db = app.db): Promise<boolean> {
  if (!app.config.mail) return false;
  await insertMail(db, mail);
  // After the caller's transaction commits the sender finds it; waking it early costs one query.
  queueMicrotask(() => app.mailSender?.wake());
  return true;
}
