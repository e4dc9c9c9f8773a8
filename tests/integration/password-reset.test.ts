import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server.ts';
import { bearer, login, loginAsAdmin, registerUser } from '../support/auth.ts';
import { linkIn, startSmtp, type TestSmtp } from '../support/smtp.ts';
import { findFreePort } from '../support/ports.ts';
import { until } from '../support/wait.ts';
import { call, expectError, sendJson, type Json } from './http-support.ts';

/**
 * "Forgot password?" against the real built server and a real SMTP server the test runs
 * (smtp-server): the link is read out of the mail that arrived. Also: no enumeration, the limits,
 * a mail server that is down (nothing lost, no request held) and a site without mail.
 */

const RESET_ANSWER = {
  message: 'If an account uses that email, a link to reset its password is on its way. It is valid for 30 minutes.',
};

async function signedIn(server: TestServer, token: string): Promise<boolean> {
  const answer = await call(server, '/api/users/me', { headers: bearer({ token }) });
  return (answer.body as { user: unknown }).user !== null;
}

describe('password reset by mail', () => {
  let smtp: TestSmtp;
  let site: TestServer;

  beforeAll(async () => {
    smtp = await startSmtp();
    site = await startServer({
      env: {
        SMTP_URL: smtp.url,
        MAIL_FROM: 'Study Site <site@example.test>',
        RATE_LIMIT_RESET_EMAIL: '2',
        RATE_LIMIT_RESET_IP: '1000',
      },
    });
  });
  afterAll(async () => {
    await site?.stop();
    await smtp?.stop();
  });

  it('mails a single-use link that sets a new password and ends every session', async () => {
    const user = await registerUser(site);
    const first = await login(site, user.email, user.password);
    const second = await login(site, user.email, user.password);

    const asked = await sendJson(site, 'POST', '/api/users/forgot-password', { email: user.email.toUpperCase() });
    expect(asked.status, asked.text).toBe(200);
    expect(asked.body).toEqual(RESET_ANSWER);

    const mail = await smtp.waitForMail(user.email, /Reset your password/);
    expect(mail.from).toBe('site@example.test');
    const link = linkIn(mail, `${site.origin}/reset-password?token=`);
    const token = new URL(link).searchParams.get('token')!;
    // Only the hash is stored: the token itself is nowhere in the database.
    const db = new SQLite(site.databasePath, { readonly: true });
    try {
      const stored = db.prepare('select token_hash from account_tokens').pluck().all() as string[];
      expect(stored.length).toBeGreaterThan(0);
      expect(stored).not.toContain(token);
    } finally {
      db.close();
    }

    const page = await call(site, `/reset-password?token=${token}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Choose a new password');

    const changed = await sendJson(site, 'POST', '/api/users/reset-password', { token, password: 'a-brand-new-password' });
    expect(changed.status, changed.text).toBe(200);
    expect(await signedIn(site, first.token)).toBe(false);
    expect(await signedIn(site, second.token)).toBe(false);
    await login(site, user.email, 'a-brand-new-password');
    expectError(await sendJson(site, 'POST', '/api/users/login', { email: user.email, password: user.password }), 401);

    const again = expectError(
      await sendJson(site, 'POST', '/api/users/reset-password', { token, password: 'yet-another-password' }),
      400,
      'invalid_link',
    );
    expect(again.message).toMatch(/already been used/);
  });

  it('answers an unknown email exactly as a known one, and mails nothing', async () => {
    const before = smtp.received.length;
    const asked = await sendJson(site, 'POST', '/api/users/forgot-password', { email: 'nobody-here@example.test' });
    expect(asked.status).toBe(200);
    expect(asked.body).toEqual(RESET_ANSWER);
    // A known email's mail, asked after it, arrives; the unknown one never had a mail queued.
    const user = await registerUser(site);
    await sendJson(site, 'POST', '/api/users/forgot-password', { email: user.email });
    await smtp.waitForMail(user.email);
    expect(smtp.received.slice(before).some((mail) => mail.to.includes('nobody-here@example.test'))).toBe(false);
  });

  it('refuses an expired link, a made-up one and a malformed one, each with its reason', async () => {
    const user = await registerUser(site);
    await sendJson(site, 'POST', '/api/users/forgot-password', { email: user.email });
    const token = new URL(linkIn(await smtp.waitForMail(user.email), `${site.origin}/reset-password?token=`)).searchParams.get(
      'token',
    )!;
    const db = new SQLite(site.databasePath);
    try {
      db.prepare("update account_tokens set expires_at = '2000-01-01T00:00:00.000Z' where used_at is null").run();
    } finally {
      db.close();
    }
    const expired = expectError(
      await sendJson(site, 'POST', '/api/users/reset-password', { token, password: 'never-applied-password' }),
      400,
      'invalid_link',
    );
    expect(expired.message).toMatch(/expired/);
    await login(site, user.email, user.password);

    const madeUp = expectError(
      await sendJson(site, 'POST', '/api/users/reset-password', { token: 'A'.repeat(43), password: 'never-applied-password' }),
      400,
      'invalid_link',
    );
    expect(madeUp.message).toMatch(/not valid/);
    const malformed = expectError(
      await sendJson(site, 'POST', '/api/users/reset-password', { token: 'short', password: 'x' }),
      400,
      'invalid_input',
    );
    expect(Object.keys(malformed.fields as Json).sort()).toEqual(['password', 'token']);
    expect((await call(site, '/reset-password?token=short')).text).toContain('This reset link is not valid');
  });

  it('limits requests per email whether or not it has an account', async () => {
    const user = await registerUser(site);
    for (const email of [user.email, 'limit-probe@example.test']) {
      for (let i = 0; i < 2; i++)
        expect((await sendJson(site, 'POST', '/api/users/forgot-password', { email })).status).toBe(200);
      const refused = expectError(await sendJson(site, 'POST', '/api/users/forgot-password', { email }), 429, 'rate_limited');
      expect(refused.message).toMatch(/this email/);
    }
  });

  it('shows the admin that mail is on', async () => {
    const admin = await loginAsAdmin(site);
    const settings = await call(site, '/admin/settings', { headers: { Cookie: admin.cookie } });
    expect(settings.text).toContain('Mail is on');
    expect(settings.text).not.toContain('Mail is off');
    for (const path of ['/admin/dashboard', '/admin/comments-manage'])
      expect((await call(site, path, { headers: { Cookie: admin.cookie } })).text, path).not.toContain('data-mail-off');
  });
});

describe('a mail server that is down', () => {
  let site: TestServer;
  let smtp: TestSmtp | undefined;

  afterAll(async () => {
    await site?.stop();
    await smtp?.stop();
  });

  it('holds no request and loses no mail: it is sent once the server is back', async () => {
    const port = await findFreePort();
    site = await startServer({ env: { SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_FROM: 'site@example.test' } });
    const user = await registerUser(site);
    const asked = await sendJson(site, 'POST', '/api/users/forgot-password', { email: user.email });
    expect(asked.body).toEqual(RESET_ANSWER);

    // The first attempt failed (nothing listens) and the mail waits in the queue for its retry.
    const db = new SQLite(site.databasePath, { readonly: true });
    try {
      const failed = await until(
        () => db.prepare('select status, attempts, last_error from mail_queue').get() as Json | undefined,
        (row) => row !== undefined && Number(row.attempts) >= 1 && row.last_error !== null,
        'a failed first attempt',
      );
      expect(failed?.status).toBe('queued');
    } finally {
      db.close();
    }
    smtp = await startSmtp({ port });
    const mail = await smtp.waitForMail(user.email);
    expect(linkIn(mail, `${site.origin}/reset-password?token=`)).toMatch(/token=[\w-]{43}$/);
  });
});

describe('a site without mail', () => {
  let site: TestServer;

  beforeAll(async () => {
    site = await startServer();
  });
  afterAll(async () => {
    await site?.stop();
  });

  it('offers no reset and tells the admin that mail is off', async () => {
    const user = await registerUser(site);
    const refused = expectError(
      await sendJson(site, 'POST', '/api/users/forgot-password', { email: user.email }),
      503,
      'unavailable',
    );
    expect(refused.message).toMatch(/does not send mail/);
    const forgot = (await call(site, '/forgot-password')).text;
    expect(forgot).toContain('Password reset by email is not available: this site does not send mail.');
    // Whom to ask instead: the owner, reached through the Contact page.
    expect(forgot).toMatch(/ask the site’s owner to reset your password; how to reach them is on the\s+<a href="\/contact">/);
    expect((await call(site, '/login')).text).toMatch(/<a href="#" aria-disabled="true"[^>]*>Forgot password\?<\/a>/);
    const admin = await loginAsAdmin(site);
    expect((await call(site, '/admin/settings', { headers: { Cookie: admin.cookie } })).text).toContain('Mail is off');
    // Also where mail would matter: the dashboard, and the comments screen (no moderation digest).
    const notices = {
      '/admin/dashboard': 'readers cannot reset a forgotten password',
      '/admin/comments-manage': 'no mail tells the admins that comments wait for moderation',
    };
    for (const [path, says] of Object.entries(notices)) {
      const html = (await call(site, path, { headers: { Cookie: admin.cookie } })).text;
      expect(html, path).toMatch(/<p class="mail-off-note" role="note" data-mail-off[^>]*>\s*<strong>Mail is off:<\/strong>/);
      expect(html, path).toContain(says);
      expect(html, path).toContain('href="/admin/settings#mail-status-heading"');
    }
  });
});
