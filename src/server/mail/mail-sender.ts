import type { Db } from '../db/client.ts';
import {
  claimDueMail,
  deleteSentMailBefore,
  markMailFailed,
  markMailSent,
  nextMailDueAt,
} from '../db/repositories/mail-queue.ts';
import type { Wakeable } from '../ports.ts';
import type { SendMail } from './smtp-transport.ts';

/**
 * The background sender: sends what the queue holds, one mail at a time, in the lead serving
 * process only (front/site.ts starts it where the top-viewed check runs). A failed attempt is
 * tried again after a wait that doubles (30 s up to an hour); after MAX_ATTEMPTS (about a day) the
 * mail is marked failed and kept for the admin. Claims run out, so a mail claimed by a sender that
 * died is sent by the next one. Mail queued by another process is found by the poll.
 */
export const MAX_ATTEMPTS = 30;
const POLL_MS = 5_000;
const CLAIM_MS = 5 * 60_000;
const BATCH = 20;
const KEEP_SENT_MS = 7 * 24 * 60 * 60_000;

/** The wait after the n-th failed attempt (n from 1): 30 s, 60 s, 2 min... at most an hour. */
export function retryDelayMs(attempts: number): number {
  return Math.min(30_000 * 2 ** Math.max(0, attempts - 1), 60 * 60_000);
}

export interface MailSenderOptions {
  db: Db;
  send: SendMail;
  log?: (line: string) => void;
  now?: () => number;
}

/** Sends every due mail once; answers how many were sent. */
export async function sendDueMail({ db, send, log = console.log, now = Date.now }: MailSenderOptions): Promise<number> {
  let sent = 0;
  for (;;) {
    const at = now();
    const batch = await claimDueMail(db, {
      now: new Date(at).toISOString(),
      claimUntil: new Date(at + CLAIM_MS).toISOString(),
      limit: BATCH,
    });
    if (batch.length === 0) return sent;
    for (const mail of batch) {
      try {
        await send(mail);
        await markMailSent(db, mail.id, new Date(now()).toISOString());
        sent += 1;
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        const giveUp = mail.attempts >= MAX_ATTEMPTS;
        const retryAt = giveUp ? null : new Date(now() + retryDelayMs(mail.attempts)).toISOString();
        await markMailFailed(db, mail.id, { error: reason, retryAt });
        log(`[mail] ${mail.kind} mail ${mail.id} not sent (attempt ${mail.attempts}): ${reason}${giveUp ? '; gave up' : ''}`);
      }
    }
  }
}

/** The sender, made before the app context (which holds it, so a queued mail wakes it) and started after. */
export interface MailSender extends Wakeable {
  start(): void;
  /** Waits for a send under way. */
  stop(): Promise<void>;
}

export function createMailSender(options: MailSenderOptions): MailSender {
  const now = options.now ?? Date.now;
  let started = false;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> = Promise.resolve();
  let again = false;

  const sleep = async () => {
    const due = await nextMailDueAt(options.db);
    const wait = due === null ? POLL_MS : Math.min(Math.max(Date.parse(due) - now(), 0), POLL_MS);
    if (stopped) return;
    timer = setTimeout(run, wait);
    timer.unref();
  };
  function run() {
    if (timer) clearTimeout(timer);
    timer = null;
    running = running
      .then(async () => {
        if (stopped) return;
        do {
          again = false;
          await sendDueMail(options);
          await deleteSentMailBefore(options.db, new Date(now() - KEEP_SENT_MS).toISOString());
        } while (again && !stopped);
        await sleep();
      })
      .catch((error: unknown) => {
        console.error('[mail] the mail sender failed, trying again shortly:', error);
        if (!stopped) timer = setTimeout(run, POLL_MS);
      });
  }
  return {
    start() {
      started = true;
      run();
    },
    wake() {
      if (!started || stopped) return;
      again = true;
      if (timer) run();
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
