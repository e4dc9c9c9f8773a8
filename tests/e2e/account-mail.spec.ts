import { expect, test, type Page } from '@playwright/test';
import { startServer, ADMIN_EMAIL, ADMIN_PASSWORD, type TestServer } from '../support/server.ts';
import { login, registerUser } from '../support/auth.ts';
import { buildAccount } from '../support/builders.ts';
import { linkIn, startSmtp, type ReceivedMail, type TestSmtp } from '../support/smtp.ts';
import { until } from '../support/wait.ts';
import { waitForIsland } from './site-support.ts';

/**
 * A reader's account in real Chromium against the real server and a real SMTP server
 * (smtp-server): the sessions listed and one ended, a new password, a new email confirmed by the
 * link read out of the mail that reached it (and refused the second time), the account deleted;
 * and a new reader confirming their email from the mailed link when the owner asks for it.
 */

let server: TestServer;
let smtp: TestSmtp;

test.beforeAll(async () => {
  smtp = await startSmtp();
  server = await startServer({ env: { SMTP_URL: smtp.url, MAIL_FROM: 'Study Site <site@example.test>' } });
});

test.afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
});

/** The n-th mail (from 1) that reached `to` with a matching subject. */
const nthMail = (to: string, n: number, subject: RegExp) =>
  until(
    () => smtp.received.filter((mail) => mail.to.includes(to.toLowerCase()) && subject.test(mail.subject)),
    (mails) => mails.length >= n,
    `mail ${n} to ${to}`,
  ).then((mails) => mails[n - 1]!) as Promise<ReceivedMail>;

async function logInHere(page: Page, email: string, password: string): Promise<void> {
  await page.goto(server.url('/login'));
  await waitForIsland(page, 'LoginForm');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log In' }).click();
}

async function signedIn(token: string): Promise<boolean> {
  const answer = await fetch(server.url('/api/users/me'), { headers: { Authorization: `Bearer ${token}` } });
  return ((await answer.json()) as { user: unknown }).user !== null;
}

test('a reader ends another session, changes password and email (by the mailed link) and deletes the account', async ({
  page,
}) => {
  const user = await registerUser(server);
  const elsewhere = await login(server, user.email, user.password);
  await logInHere(page, user.email, user.password);
  await expect(page.getByRole('status')).toContainText('Login Successful!');

  await page.goto(server.url('/account'));
  await waitForIsland(page, 'AccountScreen');
  const sessions = page.getByRole('region', { name: 'Where you are logged in' });
  await expect(sessions.getByRole('listitem')).toHaveCount(2);
  await sessions.getByRole('button', { name: /^End the session of/ }).click();
  await expect(sessions.getByRole('listitem')).toHaveCount(1);
  await expect(sessions.getByRole('button', { name: 'Log out of this browser' })).toBeVisible();
  expect(await signedIn(elsewhere.token)).toBe(false);

  const password = page.getByRole('region', { name: 'Change password' });
  await password.getByLabel('Current password').fill('not-my-password');
  await password.getByLabel('New password').fill('a-second-passphrase');
  await password.getByRole('button', { name: 'Change password' }).click();
  await expect(password.getByRole('alert')).toBeVisible();
  await password.getByLabel('Current password').fill(user.password);
  await password.getByRole('button', { name: 'Change password' }).click();
  await expect(password.getByRole('status')).toContainText('Your password was changed');

  const newEmail = buildAccount('moved').email;
  const email = page.getByRole('region', { name: 'Change email' });
  await email.getByLabel('Current password').fill('a-second-passphrase');
  await email.getByLabel('New email').fill(newEmail);
  await email.getByRole('button', { name: 'Send confirmation link' }).click();
  await expect(email.getByRole('status')).toContainText(`We sent a link to ${newEmail}`);
  const link = linkIn(await nthMail(newEmail, 1, /Confirm your new email/), `${server.origin}/confirm-email?token=`);
  await page.goto(link);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Confirm your new email');
  await waitForIsland(page, 'ConfirmEmail');
  await page.getByRole('button', { name: 'Confirm my new email' }).click();
  await expect(page.getByRole('status')).toContainText(`Your email is now ${newEmail}`);
  await page.goto(link);
  await waitForIsland(page, 'ConfirmEmail');
  await page.getByRole('button', { name: 'Confirm my new email' }).click();
  await expect(page.getByRole('alert')).toContainText('already been used');

  await page.goto(server.url('/account'));
  await waitForIsland(page, 'AccountScreen');
  await expect(page.locator('.account-facts')).toContainText(newEmail);
  const remove = page.getByRole('region', { name: 'Delete account' });
  await remove.getByLabel('Current password').fill('a-second-passphrase');
  await remove.getByRole('button', { name: 'Delete my account' }).click();
  await expect(page.getByRole('status')).toContainText('Your account was deleted');
  const gone = await fetch(server.url('/api/users/login'), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: newEmail, password: 'a-second-passphrase' }),
  });
  expect(gone.status).toBe(401);
});

test('when the owner asks for it, a new reader confirms the email from the mailed link before logging in', async ({
  page,
  playwright,
}) => {
  const admin = await playwright.request.newContext({ baseURL: server.origin, extraHTTPHeaders: { Origin: server.origin } });
  try {
    expect((await admin.post('/api/users/login', { data: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD } })).status()).toBe(200);
    expect((await admin.put('/api/admin/account-policy', { data: { verify_reader_email: true } })).status()).toBe(200);

    const account = buildAccount('newcomer');
    await page.goto(server.url('/register'));
    await waitForIsland(page, 'RegisterForm');
    await page.getByLabel('Username').fill(account.username);
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password').fill(account.password);
    await page.getByRole('button', { name: 'Register' }).click();
    await expect(page.getByRole('status')).toContainText(`open the link we mailed to ${account.email}`);
    await nthMail(account.email, 1, /Confirm your email/);

    await logInHere(page, account.email, account.password);
    await expect(page.getByRole('alert')).toContainText('Confirm your email first');
    const link = linkIn(await nthMail(account.email, 2, /Confirm your email/), `${server.origin}/confirm-email?token=`);
    await page.goto(link);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Confirm your email');
    await waitForIsland(page, 'ConfirmEmail');
    await page.getByRole('button', { name: 'Confirm my email' }).click();
    await expect(page.getByRole('status')).toContainText('Your email is confirmed');
    await page.getByRole('link', { name: 'Log in' }).click();
    await waitForIsland(page, 'LoginForm');
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password').fill(account.password);
    await page.getByRole('button', { name: 'Log In' }).click();
    await expect(page.getByRole('status')).toContainText('Login Successful!');
  } finally {
    await admin.put('/api/admin/account-policy', { data: { verify_reader_email: false } });
    await admin.dispose();
  }
});
