import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../db/client.ts';
import { openMigratedDatabase } from '../../../tests/support/db.ts';
import { insertMail, type QueuedMail } from '../db/repositories/mail-queue.ts';
import { MAX_ATTEMPTS, retryDelayMs, sendDueMail } from './mail-sender.ts';

let db: Db;
let close: () => void;
let clock: number;
const now = () => clock;
const quiet = () => {};

beforeEach(async () => {
  ({ db, close } = await openMigratedDatabase());
  clock = Date.parse('2026-01-01T00:00:00.000Z');
});
afterEach(() => close());

const queue = (to: string) => insertMail(db, { to, subject: 'Hello', text: 'Body', kind: 'test' }, new Date(clock).toISOString());
const rows = () => db.selectFrom('mail_queue').selectAll().orderBy('id').execute();

describe('sendDueMail', () => {
  it('sends every queued mail once and marks it sent', async () => {
    await queue('a@example.test');
    await queue('b@example.test');
    const sent: string[] = [];
    expect(await sendDueMail({ db, send: async (mail) => void sent.push(mail.to_address), now, log: quiet })).toBe(2);
    expect(sent).toEqual(['a@example.test', 'b@example.test']);
    expect((await rows()).map((row) => row.status)).toEqual(['sent', 'sent']);
    expect(await sendDueMail({ db, send: async () => {}, now, log: quiet })).toBe(0);
  });

  it('keeps a mail the server refused and tries it again after a wait that doubles', async () => {
    await queue('a@example.test');
    const refuse = async () => {
      throw new Error('451 try later');
    };
    await sendDueMail({ db, send: refuse, now, log: quiet });
    let [row] = await rows();
    expect(row).toMatchObject({ status: 'queued', attempts: 1, last_error: '451 try later' });
    expect(Date.parse(row!.next_attempt_at) - clock).toBe(retryDelayMs(1));
    // Not due yet: nothing is tried.
    expect(await sendDueMail({ db, send: refuse, now, log: quiet })).toBe(0);
    expect((await rows())[0]!.attempts).toBe(1);
    clock += retryDelayMs(1);
    await sendDueMail({ db, send: refuse, now, log: quiet });
    [row] = await rows();
    expect(Date.parse(row!.next_attempt_at) - clock).toBe(retryDelayMs(2));
    expect(retryDelayMs(2)).toBe(2 * retryDelayMs(1));
    clock += retryDelayMs(2);
    const sent: QueuedMail[] = [];
    expect(await sendDueMail({ db, send: async (mail) => void sent.push(mail), now, log: quiet })).toBe(1);
    expect((await rows())[0]).toMatchObject({ status: 'sent', attempts: 3 });
  });

  it('gives up after MAX_ATTEMPTS and keeps the mail as failed', async () => {
    await queue('a@example.test');
    await db
      .updateTable('mail_queue')
      .set({ attempts: MAX_ATTEMPTS - 1 })
      .execute();
    await sendDueMail({
      db,
      send: async () => {
        throw new Error('550 no such mailbox');
      },
      now,
      log: quiet,
    });
    expect((await rows())[0]).toMatchObject({ status: 'failed', attempts: MAX_ATTEMPTS, last_error: '550 no such mailbox' });
  });

  it('never hands one mail to two senders at once', async () => {
    await queue('a@example.test');
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const sent: string[] = [];
    const slow = sendDueMail({ db, send: async (mail) => (await held, void sent.push(`slow:${mail.id}`)), now, log: quiet });
    // The first sender claimed it before sending; a second one finds nothing due.
    await new Promise((resolve) => setImmediate(resolve));
    expect(await sendDueMail({ db, send: async (mail) => void sent.push(`fast:${mail.id}`), now, log: quiet })).toBe(0);
    release();
    expect(await slow).toBe(1);
    expect(sent).toEqual(['slow:1']);
  });

  it('sends a mail whose sender died mid-send once its claim ran out', async () => {
    await queue('a@example.test');
    await db
      .updateTable('mail_queue')
      .set({ claimed_until: new Date(clock + 60_000).toISOString(), attempts: 1 })
      .execute();
    expect(await sendDueMail({ db, send: async () => {}, now, log: quiet })).toBe(0);
    clock += 61_000;
    expect(await sendDueMail({ db, send: async () => {}, now, log: quiet })).toBe(1);
  });
});
