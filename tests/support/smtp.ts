import { findFreePort } from './ports.ts';
import { SMTPServer } from 'smtp-server';
import { simpleParser } from 'mailparser';
import { until } from './wait.ts';

/**
 * A real SMTP server for tests (the `smtp-server` package) on 127.0.0.1: it receives what the
 * site sends, parses each mail (`mailparser`) and keeps it.
 */
export interface ReceivedMail {
  to: string[];
  from: string;
  subject: string;
  text: string;
}

export interface TestSmtp {
  port: number;
  /** SMTP_URL for the site under test. */
  url: string;
  received: ReceivedMail[];
  /** Waits for the first mail to `to` whose subject matches (a hang guard, no budget). */
  waitForMail: (to: string, subject?: RegExp) => Promise<ReceivedMail>;
  stop: () => Promise<void>;
}

export async function startSmtp(options: { port?: number } = {}): Promise<TestSmtp> {
  const received: ReceivedMail[] = [];
  const state: TestSmtp = {
    port: 0,
    url: '',
    received,
    waitForMail: (to, subject) =>
      until(
        () => received.find((mail) => mail.to.includes(to.toLowerCase()) && (!subject || subject.test(mail.subject))),
        (mail) => mail !== undefined,
        `a mail to ${to}`,
      ) as Promise<ReceivedMail>,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server = new SMTPServer({
    // Plain SMTP on loopback: no TLS certificate to trust, no login.
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        simpleParser(Buffer.concat(chunks))
          .then((parsed) => {
            received.push({
              to: session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase()),
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              subject: parsed.subject ?? '',
              text: parsed.text ?? '',
            });
            callback();
          })
          .catch((error: Error) => callback(error));
      });
    },
  });
  const port = options.port ?? (await findFreePort());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  state.port = port;
  state.url = `smtp://127.0.0.1:${port}`;
  return state;
}

/** The first link in a mail's text that starts with `prefix`. */
export function linkIn(mail: ReceivedMail, prefix: string): string {
  const escaped = prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const match = new RegExp(`${escaped}\\S+`).exec(mail.text);
  if (!match) throw new Error(`No link starting with ${prefix} in the mail:\n${mail.text}`);
  return match[0];
}
