import { ConfigError } from './config-error.ts';

/** Outgoing mail (SMTP_URL, MAIL_FROM); null when SMTP_URL is unset: the site then sends no mail. */
export interface MailSettings {
  /** smtp://user:pass@host:587 (STARTTLS when offered) or smtps://...:465 (TLS from the start). */
  smtpUrl: string;
  /** The From of every mail: an address, or `Name <address>`. */
  from: string;
}

const ADDRESS = /^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/;
const NAMED_ADDRESS = /^[^<>\r\n]*<([^\s@<>]+@[^\s@<>]+\.[^\s@<>]+)>$/;

export function readMailSettings(env: NodeJS.ProcessEnv): MailSettings | null {
  const raw = env.SMTP_URL ?? '';
  if (raw === '') return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError('SMTP_URL must be a URL such as smtp://user:password@mail.example.org:587');
  }
  if ((url.protocol !== 'smtp:' && url.protocol !== 'smtps:') || !url.hostname)
    throw new ConfigError('SMTP_URL must start with smtp:// or smtps:// and name a host');
  const from = (env.MAIL_FROM ?? '').trim();
  if (!from)
    throw new ConfigError('SMTP_URL needs MAIL_FROM, the address mail is sent from (such as "Study Site <site@example.org>")');
  if (!ADDRESS.test(from) && !NAMED_ADDRESS.test(from))
    throw new ConfigError(`MAIL_FROM must be an address or Name <address>, got "${from}"`);
  return { smtpUrl: raw, from };
}
