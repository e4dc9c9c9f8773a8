import { expect, test } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startServer, type TestServer } from '../support/server.ts';
import { waitForIsland } from './site-support.ts';

/**
 * Two-factor sign-in in real Chromium: the admin sets it up on /account from the key shown beside
 * the QR code, keeps the recovery codes, and the next login asks for a code the test computes from
 * that key. Runs its own server so the other browser tests' admin logs in with a password alone.
 */

let server: TestServer;

test.beforeAll(async () => {
  server = await startServer();
});
test.afterAll(async () => {
  await server?.stop();
});

const codeAt = (secret: string, at: number) =>
  new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) }).generate({ timestamp: at });

test('an admin turns on two-factor sign-in and logs in with a code', async ({ page, context }) => {
  await page.goto(server.url('/login'));
  await waitForIsland(page, 'LoginForm');
  await page.getByLabel('Email').fill(ADMIN_EMAIL);
  await page.getByLabel('Password').fill(ADMIN_PASSWORD);
  await page.getByRole('button', { name: 'Log In' }).click();
  await expect(page).toHaveURL(/\/admin/);

  await page.goto(server.url('/account'));
  await waitForIsland(page, 'AccountScreen');
  await page.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
  await expect(page.getByRole('img', { name: 'QR code of the two-factor key' })).toBeVisible();
  const secret = (await page.locator('.totp-secret').textContent())!.trim();
  await page.getByLabel('Code from the app').fill('000000');
  await page.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();
  await expect(page.getByRole('alert')).toContainText('That code is not right');
  const enrolledAt = Date.now();
  await page.getByLabel('Code from the app').fill(codeAt(secret, enrolledAt));
  await page.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();
  await expect(page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem')).toHaveCount(10);
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `test-results/two-factor-codes-${width}.png`, fullPage: true });
  }
  await page.getByRole('button', { name: 'I have saved them' }).click();
  await expect(page.getByRole('button', { name: 'Turn off two-factor sign-in' })).toBeVisible();

  await context.clearCookies();
  await page.goto(server.url('/login'));
  await waitForIsland(page, 'LoginForm');
  await page.getByLabel('Email').fill(ADMIN_EMAIL);
  await page.getByLabel('Password').fill(ADMIN_PASSWORD);
  await page.getByRole('button', { name: 'Log In' }).click();
  await expect(page.getByRole('alert')).toContainText('Enter the 6-digit code');
  // A code of a later step than the one the set-up used: each code works once.
  const later = (Math.floor(enrolledAt / 30_000) + 1) * 30_000;
  await page.waitForFunction((at) => Date.now() >= at, later);
  await page.getByLabel('Authentication code').fill(codeAt(secret, Date.now()));
  await page.getByRole('button', { name: 'Log In' }).click();
  await expect(page.getByRole('status')).toContainText('Login Successful!');
  await expect(page).toHaveURL(/\/admin/);
});
