import { expect, test, type Page } from '@playwright/test';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startServer, type TestServer } from '../support/server.ts';

/**
 * Accounts in real Chromium: sign up, log in, the nav's signed-in state, log out, the admin
 * landing, the server-side /admin guard and the login limit. This file runs its own server so its
 * small login limit and its sign-ups cannot disturb the other browser tests.
 */

let server: TestServer;

test.beforeAll(async () => {
  server = await startServer({ env: { RATE_LIMIT_LOGIN_ACCOUNT: '3', RATE_LIMIT_REGISTER_IP: '100' } });
});

test.afterAll(async () => {
  await server?.stop();
});

const url = (path: string) => server.url(path);

/** Waits until Astro has hydrated the named island (it drops the `ssr` attribute then). */
async function waitForIsland(page: Page, component: string): Promise<void> {
  await page.waitForFunction((name) => {
    const islands = [...document.querySelectorAll(`astro-island[component-url*="/${name}."]`)];
    return islands.length > 0 && islands.every((island) => !island.hasAttribute('ssr'));
  }, component);
}

let counter = 0;
function newAccount() {
  counter += 1;
  const tag = `e2e${Date.now().toString(36)}${counter}`;
  return { username: tag, email: `${tag}@example.test`, password: `pw-${tag}-secret` };
}

async function register(page: Page, account: { username: string; email: string; password: string }): Promise<void> {
  await page.goto(url('/register'));
  await waitForIsland(page, 'RegisterForm');
  await page.getByLabel('Username').fill(account.username);
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Register' }).click();
}

async function fillLogin(page: Page, email: string, password: string): Promise<void> {
  await page.goto(url('/login'));
  await waitForIsland(page, 'LoginForm');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log In' }).click();
}

const navAuth = (page: Page) => page.locator('header .nav-auth').first();

test('the login screen has what docs/product.md#login-and-registration asks for', async ({ page }) => {
  await page.goto(url('/login'));
  await expect(page.getByRole('heading', { name: 'Welcome Back!' })).toBeVisible();
  await expect(page.getByLabel('Email')).toHaveAttribute('type', 'email');
  await expect(page.getByLabel('Email')).toHaveAttribute('required', '');
  await expect(page.getByLabel('Password')).toHaveAttribute('required', '');
  await expect(page.getByRole('link', { name: 'Forgot password?' })).toHaveAttribute('aria-disabled', 'true');
  await waitForIsland(page, 'LoginForm');
  // It goes nowhere: no navigation, not even a '#' added to the address.
  await page.getByRole('link', { name: 'Forgot password?' }).click({ force: true });
  await expect(page).toHaveURL(url('/login'));
  await page.getByRole('link', { name: 'Sign up now' }).click();
  await expect(page).toHaveURL(url('/register'));
});

test('a reader signs up, logs in, sees their name in the nav on every page, and logs out', async ({ page, context }) => {
  const account = newAccount();
  await register(page, account);
  await expect(page.getByRole('status')).toContainText('Success!');
  await expect(page.getByRole('status')).toContainText('Registration successful! Please log in.');
  await page.waitForURL(url('/login'));

  await fillLogin(page, account.email, account.password);
  await expect(page.getByRole('status')).toContainText('Login Successful!');
  await expect(page.getByRole('status')).toContainText('Success!');
  await page.waitForURL(url('/'));

  await expect(navAuth(page)).toContainText(account.username);
  await expect(navAuth(page).getByRole('link', { name: 'Log Out' })).toBeVisible();
  await expect(navAuth(page).getByRole('link', { name: 'Dashboard' })).toHaveCount(0);

  // The page itself is shared: the name comes from the island, not from the HTML.
  const html = await (await page.request.get(url('/'))).text();
  expect(html).not.toContain(account.username);
  await page.goto(url('/download'));
  await expect(navAuth(page)).toContainText(account.username);

  // The browser holds the session only in an HttpOnly cookie; scripts never see the token.
  const cookies = await context.cookies(server.origin);
  const session = cookies.find((c) => c.name === 'session');
  expect(session?.httpOnly).toBe(true);
  expect(session?.sameSite).toBe('Lax');
  const stored = await page.evaluate(() => ({ ...localStorage }));
  expect(Object.keys(stored)).not.toContain('token');
  expect(JSON.stringify(stored)).not.toContain(session!.value);
  expect(await page.evaluate(() => document.cookie)).not.toContain('session');

  await navAuth(page).getByRole('link', { name: 'Log Out' }).click();
  await page.waitForURL(url('/login'));
  await expect(navAuth(page).getByRole('link', { name: 'Login' })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('username'))).toBeNull();
  // The server ended the session: the old token is dead.
  const me = await page.request.get(url('/api/users/me'), { headers: { Authorization: `Bearer ${session!.value}` } });
  expect(await me.json()).toEqual({ user: null });
});

test('a failed login shows the server message in a closable error banner', async ({ page }) => {
  await fillLogin(page, `nobody-${Date.now()}@example.test`, 'not the password');
  const banner = page.getByRole('alert');
  await expect(banner).toContainText('Error!');
  await expect(banner).toContainText('Invalid email or password.');
  await expect(page).toHaveURL(url('/login'));
  await banner.getByRole('button', { name: 'Close message' }).click();
  await expect(page.getByRole('alert')).toHaveCount(0);
});

test('a failed sign-up shows the server message', async ({ page }) => {
  const account = newAccount();
  await register(page, { ...account, email: ADMIN_EMAIL });
  await expect(page.getByRole('alert')).toContainText('That email is already registered.');
  await expect(page).toHaveURL(url('/register'));
});

test('the admin logs in and lands on /admin', async ({ page }) => {
  await fillLogin(page, ADMIN_EMAIL, ADMIN_PASSWORD);
  await expect(page.getByRole('status')).toContainText('Login Successful!');
  await page.waitForURL((u) => u.pathname === '/admin');
  expect(new URL(page.url()).pathname).toBe('/admin');
});

test('a reader who opens /admin is sent to /login by the server', async ({ page }) => {
  const account = newAccount();
  const answer = await page.request.post(url('/api/users/register'), { data: account });
  expect(answer.status()).toBe(201);
  await fillLogin(page, account.email, account.password);
  await page.waitForURL(url('/'));
  const response = await page.goto(url('/admin'));
  expect(new URL(page.url()).pathname).toBe('/login');
  // The browser followed a server redirect: no admin page was ever sent.
  expect(response?.request().redirectedFrom()?.url()).toBe(url('/admin'));
  await page.goto(url('/admin/blogs-manage'));
  expect(new URL(page.url()).pathname).toBe('/login');
});

test('an anonymous visitor who opens /admin is sent to /login', async ({ page }) => {
  await page.goto(url('/admin'));
  expect(new URL(page.url()).pathname).toBe('/login');
});

test('the login limit answers after repeated failures, even for the right password', async ({ page }) => {
  const account = newAccount();
  expect((await page.request.post(url('/api/users/register'), { data: account })).status()).toBe(201);
  for (let i = 0; i < 3; i++) {
    await fillLogin(page, account.email, 'not the password');
    await expect(page.getByRole('alert')).toContainText('Invalid email or password.');
  }
  await fillLogin(page, account.email, account.password);
  await expect(page.getByRole('alert')).toContainText('Too many failed login attempts. Please try again later.');
  await expect(page).toHaveURL(url('/login'));
});
