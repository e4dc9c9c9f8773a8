import type { AppBase } from '../context.ts';
import { createMailSender, type MailSender } from './mail-sender.ts';
import { createSmtpSender } from './smtp-transport.ts';

/**
 * The lead serving process's mail sending, made before the app context (which holds it, so a
 * queued mail wakes it). `start` sends through SMTP_URL when it is set, or says mail is off.
 */
export function createMailSending(base: AppBase, log: (line: string) => void): MailSender {
  const mail = base.config.mail;
  if (!mail) {
    return {
      start: () => log('Mail is off (no SMTP_URL): password reset and mail notifications are not offered'),
      wake: () => {},
      stop: async () => {},
    };
  }
  // Neither connects before the first send.
  const smtp = createSmtpSender(mail);
  const sender = createMailSender({ db: base.db, send: smtp.send, log });
  return {
    start() {
      sender.start();
      log(`Mail: sending through ${new URL(mail.smtpUrl).host}`);
    },
    wake: () => sender.wake(),
    async stop() {
      await sender.stop();
      smtp.close();
    },
  };
}
