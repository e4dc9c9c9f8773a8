import type { AppContext } from '../context.ts';
import { countMailByStatus } from '../db/repositories/mail-queue.ts';

export interface MailStatus {
  on: boolean;
  /** The SMTP server's host and port (never its user or password). */
  server: string | null;
  from: string | null;
  counts: { queued: number; sent: number; failed: number };
}

/** What the admin's settings screen says about mail. */
export async function getMailStatus(app: AppContext): Promise<MailStatus> {
  const mail = app.config.mail;
  return {
    on: mail !== null,
    server: mail ? new URL(mail.smtpUrl).host : null,
    from: mail?.from ?? null,
    counts: await countMailByStatus(app.db),
  };
}
