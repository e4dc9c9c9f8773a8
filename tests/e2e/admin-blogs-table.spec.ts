import { expect, test } from '@playwright/test';
import { logInAsAdmin } from './admin-support.ts';
import { url } from './site-support.ts';

/**
 * The blog table pages and searches on the server (limit/offset/search), so it costs one small
 * page whatever the number of articles.
 */
test('pages through the blogs and searches them on the server', async ({ page }) => {
  await logInAsAdmin(page);
  const listCalls: URL[] = [];
  page.on('request', (request) => {
    const address = new URL(request.url());
    if (address.pathname === '/api/blogs' && request.method() === 'GET') listCalls.push(address);
  });
  const total = Number((await page.request.get(url('/api/blogs?limit=1'))).headers()['x-total-count']);
  expect(total).toBeGreaterThan(20);
  const pages = Math.ceil(total / 20);

  // The page's timers run on a clock the test can move, so the search box's settling is made to
  // happen instead of waited for.
  await page.clock.install();
  await page.goto(url('/admin'));
  await expect(page.getByText(`${total} blogs`, { exact: true })).toBeVisible();
  const rows = page.locator('.admin-table tbody tr');
  await expect(rows).toHaveCount(20);
  await expect(page.getByText(`Page 1 of ${pages}`)).toBeVisible();
  const firstTitle = await rows.first().locator('td').first().textContent();

  const pager = page.getByRole('navigation', { name: 'Blog pages' });
  await pager.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByText(`Page 2 of ${pages}`)).toBeVisible();
  await expect(rows.first().locator('td').first()).not.toHaveText(firstTitle!);
  await expect(pager.getByRole('button', { name: 'Previous' })).toBeEnabled();
  // Moving a page must stick (the search box's settling must not send it back to page 1): every
  // timer due within the next seconds fires now, and the table still shows page 2 and asked for no other.
  const callsOnPage2 = listCalls.length;
  await page.clock.runFor(5_000);
  await expect(page.getByText(`Page 2 of ${pages}`)).toBeVisible();
  expect(listCalls.slice(callsOnPage2).map((call) => call.search)).toEqual([]);
  if (pages > 2) await pager.getByRole('button', { name: 'Last' }).click();
  else await expect(pager.getByRole('button', { name: 'Last' })).toBeDisabled();
  await expect(rows).toHaveCount(total - (pages - 1) * 20);
  await expect(pager.getByRole('button', { name: 'Next' })).toBeDisabled();
  await pager.getByRole('button', { name: 'First' }).click();
  await expect(rows.first().locator('td').first()).toHaveText(firstTitle!);

  await page.getByLabel('Search blogs').fill('photosynthesis');
  await expect(page.getByText(/1 blog matching "photosynthesis"/)).toBeVisible();
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('How Photosynthesis Works');
  await expect(page.getByRole('navigation', { name: 'Blog pages' })).toHaveCount(0);

  await page.getByLabel('Search blogs').fill('zzzz-no-such-article');
  await expect(page.getByText('No blogs match this search.')).toBeVisible();

  // Every call asked the server for one page only.
  expect(listCalls.length).toBeGreaterThan(3);
  for (const call of listCalls) expect(call.searchParams.get('limit')).toBe('20');
  expect(listCalls.some((call) => call.searchParams.get('search') === 'photosynthesis')).toBe(true);
});

test('/admin and /admin/blogs-manage show the same table', async ({ page }) => {
  await logInAsAdmin(page);
  await page.goto(url('/admin/blogs-manage'));
  await expect(page.locator('.admin-table tbody tr')).toHaveCount(20);
  await expect(page.getByRole('navigation', { name: 'Admin Panel' }).getByRole('link', { name: 'Blogs' })).toHaveAttribute(
    'aria-current',
    'page',
  );
  await expect(page).toHaveTitle('Manage Blogs | Admin Panel');
});
