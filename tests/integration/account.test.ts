import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server.ts';
import { bearer, login, loginAsAdmin, registerUser } from '../support/auth.ts';
import { buildCommentBody } from '../support/builders.ts';
import { linkIn, startSmtp, type TestSmtp } from '../support/smtp.ts';
import { until } from '../support/wait.ts';
import { call, expectError, sendJson, type Json } from './http-support.ts';

/**
 * The reader's own account over HTTP against the real built server and a real SMTP server: a new
 * password (the current one required, other sessions end), the list of sessions and ending one,
 * a new email confirmed by a mailed link, and deleting the account with its comments renamed or
 * removed as the owner chose.
 */

let site: TestServer;
let smtp: TestSmtp;
let blogId: number;

beforeAll(async () => {
  smtp = await startSmtp();
  site = await startServer({ env: { SMTP_URL: smtp.url, MAIL_FROM: 'site@example.test' } });
  blogId = ((await call(site, '/api/blogs?limit=1')).body as Array<{ id: number }>)[0]!.id;
});
afterAll(async () => {
  await site?.stop();
  await smtp?.stop();
});

const signedIn = async (token: string) =>
  ((await call(site, '/api/users/me', { headers: bearer({ token }) })).body as Json).user !== null;
const account = async (token: string) => (await call(site, '/api/account', { headers: bearer({ token }) })).body as Json;

describe('the reader account', () => {
  it('needs a session', async () => {
    expectError(await call(site, '/api/account'), 401, 'not_logged_in');
    expectError(
      await sendJson(site, 'POST', '/api/account/password', { current_password: 'x', new_password: 'y' }),
      401,
      'not_logged_in',
    );
  });

  it('changes the password with the current one and ends every other session', async () => {
    const user = await registerUser(site);
    const here = await login(site, user.email, user.password);
    const elsewhere = await login(site, user.email, user.password);
    const wrong = expectError(
      await sendJson(
        site,
        'POST',
        '/api/account/password',
        { current_password: 'not-it-at-all', new_password: 'brand-new-pass' },
        bearer(here),
      ),
      403,
      'wrong_password',
    );
    expect((wrong.fields as Json).current_password).toBeDefined();
    const short = expectError(
      await sendJson(
        site,
        'POST',
        '/api/account/password',
        { current_password: user.password, new_password: 'short' },
        bearer(here),
      ),
      400,
      'invalid_input',
    );
    expect((short.fields as Json).new_password).toMatch(/at least 8/);
    const changed = await sendJson(
      site,
      'POST',
      '/api/account/password',
      { current_password: user.password, new_password: 'brand-new-pass' },
      bearer(here),
    );
    expect(changed.status, changed.text).toBe(200);
    expect(await signedIn(here.token)).toBe(true);
    expect(await signedIn(elsewhere.token)).toBe(false);
    await login(site, user.email, 'brand-new-pass');
  });

  it('lists the sessions with their browser and ends one of them, never another account’s', async () => {
    const user = await registerUser(site);
    const firefox = await fetch(site.url('/api/users/login'), {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'User-Agent': 'Mozilla/5.0 (Windows NT 10.0; rv:140.0) Gecko/20100101 Firefox/140.0',
      },
      body: JSON.stringify({ email: user.email, password: user.password }),
    }).then((response) => response.json() as Promise<{ token: string }>);
    const here = await login(site, user.email, user.password);
    const listed = (await account(here.token)).sessions as Array<{ id: string; current: boolean; browser: string }>;
    expect(listed).toHaveLength(2);
    expect(listed.filter((session) => session.current)).toHaveLength(1);
    const other = listed.find((session) => !session.current)!;
    expect(other.browser).toBe('Firefox on Windows');

    const strangerAccount = await registerUser(site);
    const stranger = await login(site, strangerAccount.email, strangerAccount.password);
    expectError(await call(site, `/api/account/sessions/${other.id}`, { method: 'DELETE', headers: bearer(stranger) }), 404);
    expect(await signedIn(firefox.token)).toBe(true);
    const ended = await call(site, `/api/account/sessions/${other.id}`, { method: 'DELETE', headers: bearer(here) });
    expect(ended.body).toEqual({ current: false });
    expect(await signedIn(firefox.token)).toBe(false);
    expect(await signedIn(here.token)).toBe(true);
  });

  it('changes the email only once the link mailed to the new address is opened', async () => {
    const user = await registerUser(site);
    const other = await registerUser(site);
    const session = await login(site, user.email, user.password);
    const taken = expectError(
      await sendJson(
        site,
        'POST',
        '/api/account/email',
        { email: other.email, current_password: user.password },
        bearer(session),
      ),
      409,
      'conflict',
    );
    expect(taken.message).toMatch(/already registered/);
    const newEmail = `new-${user.email}`;
    const asked = await sendJson(
      site,
      'POST',
      '/api/account/email',
      { email: newEmail, current_password: user.password },
      bearer(session),
    );
    expect(asked.status, asked.text).toBe(200);
    expect((await account(session.token)).email).toBe(user.email);

    const link = linkIn(await smtp.waitForMail(newEmail, /Confirm your new email/), `${site.origin}/confirm-email?token=`);
    const token = new URL(link).searchParams.get('token')!;
    expect((await call(site, `/confirm-email?token=${token}`)).text).toContain('Confirm my new email');
    const confirmed = await sendJson(site, 'POST', '/api/users/confirm-email', { token });
    expect(confirmed.status, confirmed.text).toBe(200);
    expect((await account(session.token)).email).toBe(newEmail);
    await login(site, newEmail, user.password);
    const reused = expectError(await sendJson(site, 'POST', '/api/users/confirm-email', { token }), 400, 'invalid_link');
    expect(reused.message).toMatch(/already been used/);
  });
});

async function commentAs(token: string, text: string): Promise<void> {
  const posted = await sendJson(
    site,
    'POST',
    `/api/blogs/${blogId}/comment`,
    buildCommentBody({ username: 'Signed Reader', comment: text }),
    bearer({ token }),
  );
  expect(posted.status, posted.text).toBe(201);
}

async function commentsNow(): Promise<Array<{ username: string; comment: string }>> {
  return ((await call(site, `/api/blogs/${blogId}`)).body as { comments: Array<{ username: string; comment: string }> }).comments;
}

describe('deleting an account', () => {
  it('keeps its comments as "deleted user" by default, or removes them when the owner chose so', async () => {
    const admin = bearer(await loginAsAdmin(site));
    expect((await call(site, '/api/admin/account-policy', { headers: admin })).body).toEqual({
      deleted_comments: 'rename',
      require_admin_2fa: false,
      verify_reader_email: false,
      moderation_digest: false,
    });

    const kept = await registerUser(site);
    const keptSession = await login(site, kept.email, kept.password);
    await commentAs(keptSession.token, `kept comment ${kept.username}`);
    expectError(
      await sendJson(site, 'DELETE', '/api/account', { current_password: 'wrong-password' }, bearer(keptSession)),
      403,
      'wrong_password',
    );
    const deleted = await sendJson(site, 'DELETE', '/api/account', { current_password: kept.password }, bearer(keptSession));
    expect(deleted.status, deleted.text).toBe(200);
    expect(await signedIn(keptSession.token)).toBe(false);
    expectError(await sendJson(site, 'POST', '/api/users/login', { email: kept.email, password: kept.password }), 401);
    const renamed = (await commentsNow()).find((c) => c.comment === `kept comment ${kept.username}`);
    expect(renamed?.username).toBe('deleted user');
    await until(
      () => call(site, `/blog/${blogId}`).then((page) => page.text),
      (html) => html.includes(`kept comment ${kept.username}`) && !html.includes('Signed Reader'),
      'the article page showing the comment as "deleted user"',
    );

    expectError(
      await sendJson(site, 'PUT', '/api/admin/account-policy', { deleted_comments: 'shred' }, admin),
      400,
      'invalid_input',
    );
    const saved = await sendJson(site, 'PUT', '/api/admin/account-policy', { deleted_comments: 'remove' }, admin);
    expect(saved.body).toEqual({
      deleted_comments: 'remove',
      require_admin_2fa: false,
      verify_reader_email: false,
      moderation_digest: false,
    });
    const removed = await registerUser(site);
    const removedSession = await login(site, removed.email, removed.password);
    await commentAs(removedSession.token, `removed comment ${removed.username}`);
    await sendJson(site, 'DELETE', '/api/account', { current_password: removed.password }, bearer(removedSession));
    expect((await commentsNow()).some((c) => c.comment === `removed comment ${removed.username}`)).toBe(false);
    // The comment kept earlier stays as it was.
    expect((await commentsNow()).some((c) => c.comment === `kept comment ${kept.username}`)).toBe(true);
  });

  it('is refused for an admin, so the site keeps an owner', async () => {
    const admin = await loginAsAdmin(site);
    const refused = expectError(
      await sendJson(site, 'DELETE', '/api/account', { current_password: 'whatever' }, bearer(admin)),
      403,
      'forbidden',
    );
    expect(refused.message).toMatch(/admin account cannot be deleted/);
  });
});
