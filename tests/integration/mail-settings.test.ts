import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server.ts';
import { bearer, login, loginAsAdmin, registerUser } from '../support/auth.ts';
import { buildAccount, buildBlogBody, buildCommentBody, uniqueName } from '../support/builders.ts';
import { linkIn, startSmtp, type ReceivedMail, type TestSmtp } from '../support/smtp.ts';
import { until } from '../support/wait.ts';
import { call, expectError, sendJson, type Json } from './http-support.ts';

/**
 * The owner's mail settings against the real built server and a real SMTP server the test runs:
 * email verification for new readers (the link read out of the mail that arrived), the
 * moderation digest to the admins, and the per-address limit on "Forgot password?".
 */

let smtp: TestSmtp;
let site: TestServer;
let admin: Record<string, string>;

beforeAll(async () => {
  smtp = await startSmtp();
  site = await startServer({
    env: {
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Study Site <site@example.test>',
      RATE_LIMIT_RESET_IP: '3',
      RATE_LIMIT_RESET_EMAIL: '1000',
    },
  });
  admin = bearer(await loginAsAdmin(site));
});

afterAll(async () => {
  await site?.stop();
  await smtp?.stop();
});

const setPolicy = async (values: Json) => {
  const saved = await sendJson(site, 'PUT', '/api/admin/account-policy', values, admin);
  expect(saved.status, saved.text).toBe(200);
  return saved.body as Json;
};

/** The n-th mail (from 1) that reached `to` with a matching subject. */
const nthMail = (to: string, n: number, subject: RegExp) =>
  until(
    () => smtp.received.filter((mail) => mail.to.includes(to.toLowerCase()) && subject.test(mail.subject)),
    (mails) => mails.length >= n,
    `mail ${n} to ${to}`,
  ).then((mails) => mails[n - 1]!) as Promise<ReceivedMail>;

const tokenOf = (mail: ReceivedMail) => new URL(linkIn(mail, `${site.origin}/confirm-email?token=`)).searchParams.get('token')!;

describe('email verification for new readers', () => {
  it('asks a new reader to open the mailed link before logging in, and mails a new one at a login too soon', async () => {
    const before = await registerUser(site);
    expect(await setPolicy({ verify_reader_email: true })).toMatchObject({ verify_reader_email: true });

    const account = buildAccount();
    const signedUp = await sendJson(site, 'POST', '/api/users/register', account);
    expect(signedUp.status, signedUp.text).toBe(201);
    expect(signedUp.body).toMatchObject({ confirm_email: true, message: expect.stringContaining(account.email) });
    const first = await nthMail(account.email, 1, /Confirm your email/);

    const refused = expectError(
      await sendJson(site, 'POST', '/api/users/login', { email: account.email, password: account.password }),
      403,
      'email_unconfirmed',
    );
    expect(refused.message).toMatch(/Confirm your email first/);
    // A wrong password still says nothing about the account.
    expectError(await sendJson(site, 'POST', '/api/users/login', { email: account.email, password: 'not-the-password' }), 401);
    const second = await nthMail(account.email, 2, /Confirm your email/);

    // The first link was replaced by the second.
    const replaced = expectError(
      await sendJson(site, 'POST', '/api/users/confirm-email', { token: tokenOf(first) }),
      400,
      'invalid_link',
    );
    expect(replaced.message).toMatch(/already been used or a newer one was sent/);

    const page = await call(site, `/confirm-email?token=${tokenOf(second)}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Confirm your email</h1>');
    const confirmed = await sendJson(site, 'POST', '/api/users/confirm-email', { token: tokenOf(second) });
    expect(confirmed.status, confirmed.text).toBe(200);
    expect(confirmed.body).toEqual({ message: 'Your email is confirmed. You can log in now.', email: account.email });
    await login(site, account.email, account.password);
    expectError(await sendJson(site, 'POST', '/api/users/confirm-email', { token: tokenOf(second) }), 400, 'invalid_link');

    // Readers who signed up before the setting log in as before.
    await login(site, before.email, before.password);
  });

  it('lets an unconfirmed reader in once the owner turns it off', async () => {
    await setPolicy({ verify_reader_email: true });
    const account = buildAccount();
    expect((await sendJson(site, 'POST', '/api/users/register', account)).status).toBe(201);
    expectError(await sendJson(site, 'POST', '/api/users/login', { email: account.email, password: account.password }), 403);
    await setPolicy({ verify_reader_email: false });
    await login(site, account.email, account.password);
    const plain = await sendJson(site, 'POST', '/api/users/register', buildAccount());
    expect(plain.body).not.toHaveProperty('confirm_email');
  });
});

describe('the moderation digest', () => {
  it('mails the admins when a comment is held, with the way to the moderation screen', async () => {
    expect(await setPolicy({ moderation_digest: true })).toMatchObject({ moderation_digest: true });
    const categories = (await call(site, '/api/categories')).body as Array<{ id: number }>;
    const created = await sendJson(
      site,
      'POST',
      '/api/blogs',
      buildBlogBody(categories[0]!.id, { title: uniqueName('Digest') }),
      admin,
    );
    expect(created.status, created.text).toBe(201);
    const blogId = (created.body as { id: number }).id;
    const text = `${uniqueName('Held')} http://a.test www.b.test https://c.test/x`;
    const held = await sendJson(site, 'POST', `/api/blogs/${blogId}/comment`, buildCommentBody({ comment: text }));
    expect(held.status, held.text).toBe(202);
    const digest = await nthMail('admin@test.local', 1, /comments? waits? for moderation/);
    expect(digest.text).toContain(`${site.origin}/admin/comments-manage`);
  });
});

describe('"Forgot password?" limits', () => {
  it('limits requests per address, whatever emails they name', async () => {
    for (let i = 0; i < 3; i += 1)
      expect((await sendJson(site, 'POST', '/api/users/forgot-password', { email: `someone-${i}@example.test` })).status).toBe(
        200,
      );
    const refused = expectError(
      await sendJson(site, 'POST', '/api/users/forgot-password', { email: 'someone-else@example.test' }),
      429,
      'rate_limited',
    );
    expect(refused.message).toMatch(/from this address/);
  });
});
