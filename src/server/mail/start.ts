import type { AppContext } from '../context.ts';
import { startMailSender } from './mail-sender.ts';
import { createSmtpSender } from './smtp-transport.ts';

/** Starts the SMTP sender when SMTP_URL is set (else says mail is off); answers its stop function. */
export function startMailSending(app: AppContext, log: (line: string) => void): () => Promise<void> {
  if (!app.config.mail) {
    log('Mail is off (no SMTP_URL): password reset and mail notifications are not offered');
    return async () => {};
  }
  const smtp = createSmtpSender(app.config.mail);
  const stop = startMailSender({ db: app.db, send: smtp.send, log });
  log(`Mail: sending through ${new URL(app.config.mail.smtpUrl).host}`);
  return async () => {
    await stop();
    smtp.close();
  };
}
