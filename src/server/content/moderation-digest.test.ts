import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { migrateToLatest, openDatabase } from '../db/client.ts';
import { insertBlog } from '../db/repositories/blogs.ts';
import { insertComment } from '../db/repositories/comments.ts';
import { insertUser } from '../db/repositories/users.ts';
import { noPageCache, type AppContext } from '../context.ts';
import { saveAccountPolicy } from '../auth/account-policy.ts';
import { buildBlogWrite } from '../../../tests/support/builders.ts';
import { DIGEST_INTERVAL_MS, sendModerationDigestIfDue } from './moderation-digest.ts';

let app: AppContext;
let blogId: number;
let adminId: number;
const start = Date.parse('2026-03-01T10:00:00.000Z');

const mailEnv = { SMTP_URL: 'smtp://127.0.0.1:2525', MAIL_FROM: 'site@example.test' };

beforeEach(async () => {
  const { db, sqlite } = openDatabase(':memory:');
  await migrateToLatest(db);
  app = { config: loadConfig(mailEnv), db, sqlite, pageCache: noPageCache };
  blogId = await insertBlog(db, buildBlogWrite(), 'x');
  adminId = (await insertUser(db, { username: 'owner', email: 'owner@example.test', passwordHash: 'x', isAdmin: true })).id;
  await insertUser(db, { username: 'second', email: 'second@example.test', passwordHash: 'x', isAdmin: true });
  await insertUser(db, { username: 'reader', email: 'reader@example.test', passwordHash: 'x', isAdmin: false });
});

afterEach(() => app.sqlite.close());

const hold = (text: string) =>
  insertComment(app.db, { blogId, username: 'Visitor', comment: text, contact: null, status: 'pending', heldReason: 'links' });
const digests = () =>
  app.db
    .selectFrom('mail_queue')
    .select(['to_address', 'subject', 'text_body'])
    .where('kind', '=', 'moderation_digest')
    .execute();
const turnOn = () => saveAccountPolicy(app.db, { moderation_digest: true }, adminId);

describe('the moderation digest', () => {
  it('is off unless the owner turns it on', async () => {
    await hold('held one');
    expect(await sendModerationDigestIfDue(app, start)).toBe(false);
    expect(await digests()).toEqual([]);
  });

  it('mails every admin once when comments wait, then at most once an hour, and only for new ones', async () => {
    await turnOn();
    expect(await sendModerationDigestIfDue(app, start)).toBe(false);
    await hold('held one');
    await hold('held two');
    expect(await sendModerationDigestIfDue(app, start)).toBe(true);
    let mails = await digests();
    expect(mails.map((mail) => mail.to_address).sort()).toEqual(['owner@example.test', 'second@example.test']);
    expect(mails[0]!.subject).toMatch(/^2 comments wait for moderation/);
    expect(mails[0]!.text_body).toContain('/admin/comments-manage');

    // Another comment within the hour: no second mail yet.
    await hold('held three');
    expect(await sendModerationDigestIfDue(app, start + DIGEST_INTERVAL_MS / 2)).toBe(false);
    expect(await digests()).toHaveLength(2);

    // An hour on: one more digest, counting every comment still waiting.
    expect(await sendModerationDigestIfDue(app, start + DIGEST_INTERVAL_MS)).toBe(true);
    mails = await digests();
    expect(mails).toHaveLength(4);
    expect(mails[3]!.subject).toMatch(/^3 comments wait/);

    // Nothing new since: no mail, however long it has been.
    expect(await sendModerationDigestIfDue(app, start + 5 * DIGEST_INTERVAL_MS)).toBe(false);
    expect(await digests()).toHaveLength(4);
  });

  it('queues nothing when mail is off', async () => {
    await turnOn();
    await hold('held one');
    const off: AppContext = { ...app, config: loadConfig({}) };
    expect(await sendModerationDigestIfDue(off, start)).toBe(false);
    expect(await digests()).toEqual([]);
  });
});
