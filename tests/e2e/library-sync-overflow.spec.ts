import { expect, test, type APIRequestContext } from '@playwright/test';
import { buildAccount, buildBlogBody, uniqueName } from '../support/builders.ts';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../support/server.ts';
import { origin, url, waitForIsland, waitForNavScript } from './site-support.ts';

/**
 * A device's saves that do not fit the account's library at login ("login sync overflow"): the
 * library page names them and says why, keeps them on the device marked as such, and adds them
 * once the reader has made room.
 */

let admin: APIRequestContext;
const ids: number[] = [];

test.beforeAll(async ({ playwright }) => {
  admin = await playwright.request.newContext({ baseURL: url(''), extraHTTPHeaders: { Origin: url('') } });
  expect((await admin.post('/api/users/login', { data: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD } })).status()).toBe(200);
  const categoryId = ((await (await admin.get('/api/categories')).json()) as Array<{ id: number }>)[0]!.id;
  for (let i = 0; i < 101; i += 1) {
    const response = await admin.post('/api/blogs', { data: buildBlogBody(categoryId, { title: uniqueName(`Overflow ${i}`) }) });
    expect(response.status()).toBe(201);
    ids.push(((await response.json()) as { id: number }).id);
  }
});

test.afterAll(async () => {
  for (const id of ids) await admin?.delete(`/api/blogs/${id}`);
  await admin?.dispose();
});

test('device saves that would overfill the account are named with the reason, kept on the device, and added once there is room', async ({
  browser,
}) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  try {
    const account = buildAccount();
    expect((await page.request.post(url('/api/users/register'), { data: account })).status()).toBe(201);
    const login = () =>
      page.request.post(url('/api/users/login'), { data: { email: account.email, password: account.password } });
    // The account's library already holds 99 articles (saved on another device, say).
    expect((await login()).status()).toBe(200);
    expect(
      (
        await page.request.post(url('/api/library/saved'), { data: { ids: ids.slice(0, 99) }, headers: { Origin: origin() } })
      ).status(),
    ).toBe(200);
    expect((await page.request.post(url('/api/users/logout'), { headers: { Origin: origin() } })).ok()).toBe(true);

    // Signed out, this device saved two more: 101 together, one more than a library holds.
    await page.goto(url('/'));
    await waitForNavScript(page);
    const device = [
      { id: ids[99]!, title: 'Device notes one' },
      { id: ids[100]!, title: 'Device notes two' },
    ];
    await page.evaluate((entries) => {
      const saved = entries.map((entry) => ({
        ...entry,
        pdf_link: null,
        image: null,
        category_name: null,
        saved_at: '',
        updated_at: '',
        device: true,
      }));
      localStorage.setItem('library.saved', JSON.stringify(saved));
    }, device);

    expect((await login()).status()).toBe(200);
    await page.goto(url('/library'));
    await waitForIsland(page, 'LibraryView');
    const notice = page.locator('[data-library-not-synced]');
    await expect(notice).toContainText('Not added to your account: these 2 articles, saved on this device before you logged in.');
    await expect(notice).toContainText('Your account’s library holds 99 of at most 100 articles, so they do not fit.');
    await expect(notice.getByRole('listitem')).toHaveText(['Device notes one', 'Device notes two']);
    // The account's articles are listed as usual, the device's two with them, marked.
    await expect(page.locator('[data-library-saved] > li')).toHaveCount(101);
    for (const entry of device)
      await expect(page.locator(`[data-saved-id="${entry.id}"]`)).toContainText('On this device only, not in your account');
    await expect(page.getByRole('heading', { name: 'Recently read' })).toBeVisible();

    // Making room: one of the device's two goes, and the other now fits and is added.
    await page.getByRole('button', { name: /^Remove ?: Device notes one$/ }).click();
    await expect(notice).toHaveCount(0);
    await expect(page.locator(`[data-saved-id="${ids[100]}"]`)).not.toContainText('On this device only');
    const library = (await (await page.request.get(url('/api/library'))).json()) as { saved: Array<{ id: number }> };
    expect(library.saved.map((entry) => entry.id)).toContain(ids[100]);
    expect(library.saved).toHaveLength(100);
  } finally {
    await context.close();
  }
});
