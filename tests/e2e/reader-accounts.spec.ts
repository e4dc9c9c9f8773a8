import { expect, test, type Page } from '@playwright/test';
import { buildAccount } from '../support/builders.ts';
import { logInAsAdmin } from './admin-support.ts';
import { waitForNavScript } from './site-support.ts';

/**
 * Signed-in readers on the public site: /login does not offer a form to someone already logged in,
 * and a reader's nav offers no Dashboard (only admins have one). Admin table on a
 * phone. Accounts are made through the API on the shared e2e server.
 */

async function logInAsNewReader(page: Page): Promise<string> {
  const account = buildAccount();
  expect((await page.request.post('/api/users/register', { data: account })).status()).toBe(201);
  const login = await page.request.post('/api/users/login', { data: { email: account.email, password: account.password } });
  expect(login.status()).toBe(200);
  return account.username;
}

test('/login tells a logged-in reader who they are instead of showing the form', async ({ page }) => {
  const username = await logInAsNewReader(page);
  await page.goto('/login');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`You are logged in as ${username}`);
  await expect(page.getByLabel('Email')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Log In' })).toHaveCount(0);
  const main = page.locator('main');
  await expect(main.getByRole('link', { name: 'Log Out' })).toHaveAttribute('href', '/logout');
  await expect(main.getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/');
  await expect(main.getByRole('link', { name: 'Go to the admin panel' })).toHaveCount(0);
});

test('/login offers the admin panel to a logged-in admin', async ({ page }) => {
  await logInAsAdmin(page);
  await page.goto('/login');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/^You are logged in as /);
  await page.locator('main').getByRole('link', { name: 'Go to the admin panel' }).click();
  await expect(page).toHaveURL(/\/admin$/);
});

test('a logged-in reader sees their name and Log Out but no Dashboard, which only admins have', async ({ page }) => {
  const username = await logInAsNewReader(page);
  await page.goto('/about');
  await waitForNavScript(page);
  const nav = page.locator('header .nav-auth');
  await expect(nav).toContainText(username);
  await expect(nav.getByRole('link', { name: 'Log Out' })).toHaveAttribute('href', '/logout');
  await expect(nav.getByRole('link', { name: 'Dashboard' })).toHaveCount(0);
});

test('on a phone the admin blog table shows every row’s Edit and Delete inside the screen', async ({ page }) => {
  await logInAsAdmin(page);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/admin/blogs-manage');
  const rows = page.locator('table.admin-table tbody tr');
  await expect(rows.first().getByRole('button', { name: /^Delete / })).toBeVisible();
  for (const row of (await rows.all()).slice(0, 5)) {
    for (const control of [row.getByRole('link', { name: /^Edit / }), row.getByRole('button', { name: /^Delete / })]) {
      const box = (await control.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(390);
    }
  }
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});
