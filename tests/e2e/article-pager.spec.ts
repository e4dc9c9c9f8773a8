import { expect, test } from '@playwright/test';
import { getJson, url } from './site-support.ts';

/**
 * Older and Newer under an article: the site's pair for a reader who arrived from anywhere, the
 * category's pair for one who came from that category's list, kept while they page through it.
 */

test('a reader from a category pages through that category; from elsewhere, through the site', async ({ page }) => {
  // Paging through articles is not reading them: no view is counted, so the view-count test
  // (one view per reader and article per half hour) finds the articles as it expects.
  await page.route(/\/api\/blogs\/\d+\/click$/, (route) => route.fulfill({ status: 204 }));
  const categories = await getJson<{ id: number; name: string }[]>(page.request, url('/api/categories'));
  const maths = categories.find((c) => c.name === 'Mathematics')!;
  await page.goto(url(`/blogs?category=${maths.id}`));
  await page
    .locator('main')
    .getByRole('link', { name: /^Read More/ })
    .first()
    .click();
  const inCategory = page.getByRole('navigation', { name: 'More in Mathematics' });
  await expect(inCategory).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'More articles' })).toBeHidden();

  // Following the category's Older link keeps the reader in the category.
  await inCategory.getByRole('link', { name: /Older in Mathematics/ }).click();
  await expect(page.getByRole('navigation', { name: 'More in Mathematics' })).toBeVisible();
  const categoryArticle = page.url();

  // The same article reached from the home page shows the site's pair.
  await page.goto(url('/'));
  await page.goto(categoryArticle);
  await expect(page.getByRole('navigation', { name: 'More articles' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'More in Mathematics' })).toBeHidden();
});
