import { expect, test, type Page } from '@playwright/test';
import { buildAccount } from '../support/builders.ts';
import { url, waitForNavScript } from './site-support.ts';

/**
 * The service worker's read-lately cache in Chromium: public pages a reader opened open again
 * offline, their sizes are counted for the 50 MB bound, and nothing personal (the account page,
 * /api answers) is ever kept. Saved articles offline are in reader-library.spec.ts.
 */

async function openControlled(page: Page, path: string): Promise<void> {
  await page.goto(url(path));
  await waitForNavScript(page);
  await page.waitForFunction(async () => {
    await navigator.serviceWorker.ready;
    return navigator.serviceWorker.controller !== null;
  });
}

test('public pages read lately open offline; account pages and API answers are never kept', async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  try {
    const account = buildAccount();
    expect((await page.request.post(url('/api/users/register'), { data: account })).status()).toBe(201);
    expect(
      (await page.request.post(url('/api/users/login'), { data: { email: account.email, password: account.password } })).status(),
    ).toBe(200);
    // The first page installs the worker; it handles the pages opened after it.
    await openControlled(page, '/');
    await openControlled(page, '/about');
    const aboutHeading = await page.getByRole('heading', { level: 1 }).textContent();
    await openControlled(page, '/blogs');
    await page.goto(url('/account'));
    await waitForNavScript(page);
    expect(await page.evaluate(async () => (await fetch('/api/library')).status)).toBe(200);

    // The pages are kept in the background once they have arrived: wait for both in the index.
    const readIndex = () =>
      page.evaluate(async () => {
        const stored = await (await caches.open('recent-pages')).match('/__sw/recent-index');
        const entries = stored ? ((await stored.json()) as Record<string, { size: number }>) : {};
        return Object.entries(entries).map(([key, entry]) => ({ path: new URL(key, location.href).pathname, size: entry.size }));
      });
    await expect
      .poll(async () => (await readIndex()).map((entry) => entry.path))
      .toEqual(expect.arrayContaining(['/about', '/blogs']));
    expect((await readIndex()).every((entry) => entry.size > 0)).toBe(true);
    const kept = await page.evaluate(async () => {
      const urls: string[] = [];
      for (const name of await caches.keys())
        for (const request of await (await caches.open(name)).keys()) urls.push(new URL(request.url).pathname);
      return urls;
    });
    expect(kept.filter((path) => /^\/(?:api|account|admin|login)(?:\/|$)/.test(path))).toEqual([]);

    await context.setOffline(true);
    await page.goto(url('/about'));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(aboutHeading!);
    await page.goto(url('/blogs?search=notes'));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('You are offline');
    // Account pages are not even intercepted: the browser's own offline error, no kept copy.
    await expect(page.goto(url('/account'))).rejects.toThrow(/ERR_INTERNET_DISCONNECTED/);
  } finally {
    await context.close();
  }
});
