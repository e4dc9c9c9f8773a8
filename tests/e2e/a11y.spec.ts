import { AxeBuilder } from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import type { ApiBlog } from '../support/api-types.ts';
import { logInAsAdmin, waitForEditor } from './admin-support.ts';
import { getJson, waitForIsland, waitForNavScript } from './site-support.ts';

/**
 * Every public and admin screen checked by axe-core against WCAG 2.0, 2.1 and 2.2 A/AA and axe's
 * best practices: no violation at all. Public pages are checked in the light and the dark theme.
 * Read-only against the shared e2e server.
 */

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];

async function violationsOf(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags(TAGS).analyze();
  return result.violations.map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

async function publicPaths(page: Page): Promise<string[]> {
  const blogs = await getJson<ApiBlog[]>(page.request, '/api/blogs?limit=200');
  const categories = await getJson<Array<{ id: number }>>(page.request, '/api/categories');
  const video = blogs.find((b) => b.isVideo === '1') ?? blogs[0]!;
  return [
    '/',
    '/blogs',
    `/blogs?category=${categories[0]!.id}`,
    // An unknown category: the "No articles found in this category" page.
    '/blogs?category=987654',
    '/blogs?search=revision',
    `/blog/${blogs[0]!.id}`,
    `/blog/${video.id}`,
    '/download',
    '/login',
    '/register',
    '/about',
    '/contact',
    '/no-such-page',
  ];
}

async function settle(page: Page, path: string): Promise<void> {
  await waitForNavScript(page);
  if (path === '/') {
    await waitForIsland(page, 'Carousel');
    await waitForIsland(page, 'BreakingTicker');
  }
  if (path === '/login' || path === '/register') await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
}

for (const scheme of ['light', 'dark'] as const) {
  test(`public pages have no accessibility violations (${scheme} theme)`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: scheme });
    // The thumbnails come from YouTube; offline they fall back to the plain panel.
    await page.route(/^https:\/\/(i\.ytimg\.com|www\.youtube\.com)\//, (route) => route.abort());
    const found: string[] = [];
    for (const path of await publicPaths(page)) {
      await page.goto(path);
      await settle(page, path);
      for (const violation of await violationsOf(page)) found.push(`${path}: ${violation}`);
    }
    expect(found).toEqual([]);
  });
}

test('admin pages have no accessibility violations', async ({ page }) => {
  await logInAsAdmin(page);
  const blogs = await getJson<ApiBlog[]>(page.request, '/api/blogs?limit=1');
  const found: string[] = [];
  const paths = [
    '/admin',
    '/admin/blogs-create',
    `/admin/edit-blog/${blogs[0]!.id}`,
    '/admin/comments-manage',
    '/admin/category',
    '/admin/carousel',
    '/admin/settings',
    '/admin/pages',
    '/admin/pages?page=contact',
  ];
  for (const path of paths) {
    await page.goto(path);
    await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
    if (path.includes('blog') || path.includes('pages')) await waitForEditor(page);
    await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
    await expect(page.getByText(/^Loading/)).toHaveCount(0);
    for (const violation of await violationsOf(page)) found.push(`${path}: ${violation}`);
  }
  expect(found).toEqual([]);
});
