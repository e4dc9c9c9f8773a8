import { expect, test } from '@playwright/test';
import { startServer, type TestServer } from '../support/server.ts';
import { registerUser } from '../support/auth.ts';
import { linkIn, startSmtp, type TestSmtp } from '../support/smtp.ts';
import { waitForIsland } from './site-support.ts';

/**
 * "Forgot password?" in real Chromium, end to end: the login page's link, the request form, the
 * mail received by a real SMTP server (smtp-server), its link opened in the browser, the new
 * password, a reused link refused, and logging in with the new password.
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

test('a reader who forgot the password sets a new one from the mailed link', async ({ page }) => {
  const user = await registerUser(server);
  await page.goto(server.url('/login'));
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  await waitForIsland(page, 'ForgotPasswordForm');
  await page.getByLabel('Email').fill(user.email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByRole('status')).toContainText('If an account uses that email');

  const link = linkIn(await smtp.waitForMail(user.email), `${server.origin}/reset-password?token=`);
  await page.goto(link);
  await waitForIsland(page, 'ResetPasswordForm');
  await page.getByLabel('New password').fill('short');
  await page.getByRole('button', { name: 'Set new password' }).click();
  // The browser's own check stops a password under 8 characters before it is sent.
  await expect(page.getByLabel('New password')).toHaveJSProperty('validity.valid', false);
  await page.getByLabel('New password').fill('my-new-passphrase');
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page.getByRole('status')).toContainText('Your password was changed');
  await expect(page).toHaveURL(/\/login$/);

  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill('my-new-passphrase');
  await page.getByRole('button', { name: 'Log In' }).click();
  await expect(page.getByRole('status')).toContainText('Login Successful!');

  // The link worked once: opened again it says so.
  await page.goto(link);
  await waitForIsland(page, 'ResetPasswordForm');
  await page.getByLabel('New password').fill('another-passphrase');
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page.getByRole('alert')).toContainText('already been used');
});
