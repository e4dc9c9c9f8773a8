import nodemailer from 'nodemailer';
import type { MailSettings } from '../config-mail.ts';
import type { QueuedMail } from '../db/repositories/mail-queue.ts';

export type SendMail = (mail: QueuedMail) => Promise<void>;

/**
 * Sends through the SMTP server of SMTP_URL with nodemailer, one pooled connection. Bounded
 * timeouts: a server that accepts the connection and then says nothing fails the attempt, to be
 * retried later, instead of holding the sender.
 */
export function createSmtpSender(settings: MailSettings): { send: SendMail; close: () => void } {
  const transport = nodemailer.createTransport({
    url: settings.smtpUrl,
    pool: true,
    maxConnections: 1,
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    socketTimeout: 30_000,
  });
  return {
    send: async (mail) => {
      await transport.sendMail({ from: settings.from, to: mail.to_address, subject: mail.subject, text: mail.text_body });
    },
    close: () => transport.close(),
  };
}
