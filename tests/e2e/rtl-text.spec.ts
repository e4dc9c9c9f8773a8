import { expect, test, type Locator } from '@playwright/test';
import { buildBlogBody } from '../support/builders.ts';
import { logInAsAdmin } from './admin-support.ts';
import { getJson, url, waitForIsland } from './site-support.ts';

/**
 * Text in a right-to-left script is laid out right to left wherever readers meet it, inside the
 * left-to-right site: an Arabic article's title and body, its card, the ticker, the top-viewed
 * list, and a comment written in Arabic.
 */

const title = `التمثيل الضوئي في النبات ${Date.now().toString(36)}`;
const body = '<p>تحوّل النباتات ضوء الشمس والماء وثاني أكسيد الكربون إلى سكر وأكسجين.</p>';
const comment = 'شرح واضح جداً، شكراً لكم!';

const direction = (locator: Locator) => locator.evaluate((el) => getComputedStyle(el).direction);

test('an Arabic article, its card and an Arabic comment read right to left', async ({ page }) => {
  await logInAsAdmin(page);
  const categories = await getJson<{ id: number }[]>(page.request, url('/api/categories'));
  const created = await page.request.post(url('/api/blogs'), {
    data: buildBlogBody(categories[0]!.id, { title, content: body, content_source: null }),
    headers: { Origin: url('') },
  });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: number };
  const posted = await page.request.post(url(`/api/blogs/${id}/comment`), {
    data: { comment, username: 'سارة', contact: '' },
    headers: { Origin: url('') },
  });
  expect([201, 202]).toContain(posted.status());

  await page.goto(url(`/blog/${id}`));
  await expect(direction(page.locator('h1'))).resolves.toBe('rtl');
  await expect(direction(page.locator('.article-content'))).resolves.toBe('rtl');
  await expect(direction(page.locator('.category-label').first())).resolves.toBe('ltr');
  if (posted.status() === 201) {
    await waitForIsland(page, 'CommentsSection');
    await expect(direction(page.locator('.comment-text', { hasText: comment }))).resolves.toBe('rtl');
  }
  await expect(direction(page.locator('textarea[name="comment"]'))).resolves.toBe('ltr');
  await page.locator('textarea[name="comment"]').fill(comment);
  await expect(direction(page.locator('textarea[name="comment"]'))).resolves.toBe('rtl');

  await page.goto(url('/'));
  await expect(direction(page.locator('.card-title', { hasText: title }))).resolves.toBe('rtl');
  await expect(direction(page.locator('.ticker-track a', { hasText: title }).first())).resolves.toBe('rtl');
  await expect(direction(page.locator('.card-title').filter({ hasNotText: title }).first())).resolves.toBe('ltr');
});
