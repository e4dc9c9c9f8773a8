import { expect, test } from '@playwright/test';
import { banner, logInAsAdminBeforeEach, waitForEditor } from './admin-support.ts';
import { url } from './site-support.ts';

/** After a save the blog form follows the background refresh until it drained, then says how it went. */
logInAsAdminBeforeEach();

test('an edit shows its live time, then how many other pages were refreshed and how fast', async ({ page, request }) => {
  const [blog] = (await (await request.get(url('/api/blogs?limit=1'))).json()) as Array<{ id: number; title: string }>;
  // A home page past the first (not re-rendered before the save answers) is stored first: the
  // server may still be pre-rendering, and a page not stored yet has nothing to refresh.
  await expect
    .poll(async () => (await request.get(url('/?page=2'))).headers()['x-page-store'], { timeout: 60_000 })
    .toMatch(/^(HIT|MISS)$/);
  await page.goto(url(`/admin/edit-blog/${blog!.id}`));
  await waitForEditor(page);
  await page.getByLabel('Title').fill(`${blog!.title} (refreshed)`);
  await page.getByRole('button', { name: 'Update Blog' }).click();
  await expect(banner(page)).toContainText(/Live in \d+(\.\d)? ms/);
  // The newest article is in the ticker of every home page: they are refreshed in the background.
  await expect(page.locator('.refresh-status')).toHaveText(/^\d+ pages? refreshed in \d+(\.\d)? s$/);
});
