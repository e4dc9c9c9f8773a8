import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import type { ApiBlog } from '../support/api-types.ts';
import { getJson, waitForIsland, waitForNavScript } from './site-support.ts';

/**
 * The public pages as a new reader meets them: no React before it is needed, social buttons that
 * never cover what is being read, Download reachable on a phone, a video panel without its
 * thumbnail, print styles. Read-only against the shared e2e server (tests/e2e/global-setup.ts).
 */

/**
 * A long demo article with an outside link: other specs add short articles, so the newest one may
 * fit on one screen (its comments already in view) or have no link to print.
 */
async function longArticle(request: APIRequestContext): Promise<ApiBlog> {
  const blogs = await getJson<ApiBlog[]>(request, '/api/blogs?limit=200');
  const withLink = blogs.filter((blog) => blog.content.includes('href="http'));
  return withLink.sort((a, b) => b.content.length - a.content.length)[0]!;
}

/** Scripts whose text holds react-dom's client entry: what hydrating an island costs. */
function reactWatcher(page: Page) {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (/\/_astro\/[^?]+\.js$/.test(new URL(request.url()).pathname)) scripts.push(request.url());
  });
  const bodies = new Map<string, Promise<string>>();
  const bodyOf = (url: string) => {
    if (!bodies.has(url))
      bodies.set(
        url,
        page.request.get(url).then((r) => r.text()),
      );
    return bodies.get(url)!;
  };
  return async (): Promise<string[]> => {
    const react: string[] = [];
    for (const url of [...scripts]) if ((await bodyOf(url)).includes('hydrateRoot')) react.push(url);
    return react;
  };
}

test('an article loads no React until the comments scroll into view', async ({ page, request }) => {
  const blog = await longArticle(request);
  const reactRequested = reactWatcher(page);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`/blog/${blog.id}`);
  await waitForNavScript(page);
  await page.waitForLoadState('networkidle');
  const comments = page.locator('section.comments');
  await expect(comments).not.toBeInViewport();
  // The nav works meanwhile: search and the sign-in area are plain HTML and a small script.
  await expect(page.locator('.nav-auth').getByRole('link', { name: 'Login' })).toBeVisible();
  expect(await reactRequested()).toEqual([]);

  await comments.scrollIntoViewIfNeeded();
  await waitForIsland(page, 'CommentsSection');
  expect((await reactRequested()).length).toBeGreaterThan(0);
});

for (const path of ['/blogs', '/download', '/about']) {
  test(`${path} loads no React at all, even scrolled to the end`, async ({ page }) => {
    const reactRequested = reactWatcher(page);
    await page.goto(path);
    await waitForNavScript(page);
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await page.waitForLoadState('networkidle');
    expect(await reactRequested()).toEqual([]);
  });
}

test('the search box ignores blank text and keeps the query on the results page', async ({ page }) => {
  await page.goto('/download');
  await waitForNavScript(page);
  const search = page.locator('.nav-search').getByRole('searchbox');
  await search.fill('   ');
  await search.press('Enter');
  await expect(page).toHaveURL(/\/download$/);
  await search.fill('  revision notes ');
  await search.press('Enter');
  await expect(page).toHaveURL(/\/blogs\?search=revision%20notes$/);
  await expect(page.locator('.nav-search').getByRole('searchbox')).toHaveValue('revision notes');
});

/**
 * Boxes of `selector` that the floating social buttons cover. Each element is scrolled to the
 * height of the buttons first (as far as the page scrolls), so "covered at some scroll position"
 * is what is measured, not only the first screen.
 */
async function coveredBySocial(page: Page, selector: string): Promise<string[]> {
  return page.evaluate((sel) => {
    const buttons = [...document.querySelectorAll<HTMLElement>('.social-float a, .social-float button')].filter(
      (el) => el.offsetParent !== null,
    );
    const hits: string[] = [];
    const overlaps = (a: DOMRect, b: DOMRect) =>
      a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom && a.width > 0 && a.height > 0;
    for (const element of document.querySelectorAll<HTMLElement>(sel)) {
      const middle = buttons.reduce((sum, b) => sum + b.getBoundingClientRect().top, 0) / buttons.length;
      const box = element.getBoundingClientRect();
      window.scrollBy(0, box.top - middle);
      const now = element.getBoundingClientRect();
      for (const button of buttons) {
        if (overlaps(now, button.getBoundingClientRect()))
          hits.push(`${element.tagName} "${element.textContent?.trim().slice(0, 40)}"`);
      }
    }
    return hits;
  }, selector);
}

for (const width of [1280, 1024]) {
  test(`at ${width} px the social buttons cover neither the Top Viewed list nor article text`, async ({ page, request }) => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/');
    await expect(page.locator('.social-float a').first()).toBeVisible();
    const topViewed = page.locator('.top-viewed li');
    expect(await topViewed.count()).toBeGreaterThan(5);
    expect(await coveredBySocial(page, '.top-viewed li, .top-viewed li a, .card')).toEqual([]);

    await page.goto(`/blog/${(await longArticle(request)).id}`);
    const text = '.article-content > *, .article-content li, .article header > *, .article-section h2, .share-links a';
    expect(await page.locator(text).count()).toBeGreaterThan(5);
    expect(await coveredBySocial(page, text)).toEqual([]);
  });
}

/** Left and right gaps between the viewport and `selector`'s box, and inside it to its content. */
async function sidesOf(page: Page, selector: string) {
  return page.locator(selector).evaluate((el) => {
    const box = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    return {
      outsideStart: box.left,
      outsideEnd: document.documentElement.clientWidth - box.right,
      paddingStart: parseFloat(style.paddingLeft),
      paddingEnd: parseFloat(style.paddingRight),
    };
  });
}

test('on a phone the social links are a bar along the bottom: the article stays centred and the page ends above the bar', async ({
  page,
  request,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/blog/${(await longArticle(request)).id}`);
  const bar = page.locator('.social-float');
  await expect(bar.locator('a').first()).toBeVisible();

  // Centred: the same margin and padding on both sides of the article (it was 16 px against 52).
  const sides = await sidesOf(page, '.article');
  expect(Math.abs(sides.outsideStart - sides.outsideEnd)).toBeLessThanOrEqual(1);
  expect(sides.paddingEnd).toBe(sides.paddingStart);

  // A bar across the whole width at the bottom, opaque, its buttons in one row.
  const box = (await bar.boundingBox())!;
  expect(box.width).toBe(390);
  expect(Math.round(box.y + box.height)).toBe(844);
  expect(await bar.evaluate((el) => getComputedStyle(el).backgroundColor)).not.toMatch(/rgba\(0, 0, 0, 0\)|transparent/);
  const tops = await bar.locator('a, button').evaluateAll((els) => els.map((el) => Math.round(el.getBoundingClientRect().top)));
  expect(tops.length).toBe(4);
  expect(new Set(tops).size).toBe(1);

  // Scrolled to the end, the footer's last line is above the bar: nothing is out of reach.
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await expect
    .poll(() =>
      page.evaluate(() => {
        const footer = document.querySelector('footer.site-footer')!.getBoundingClientRect();
        const barTop = document.querySelector('.social-float')!.getBoundingClientRect().top;
        return footer.bottom <= barTop + 0.5;
      }),
    )
    .toBe(true);

  // Hidden, the bar gives the width back: only the toggle stays, in the corner.
  await page.getByRole('button', { name: 'Social links' }).click();
  await expect(bar.locator('a').first()).toBeHidden();
  const collapsed = (await bar.boundingBox())!;
  expect(collapsed.width).toBeLessThan(80);
  expect(collapsed.x).toBeGreaterThan(300);
});

test('on a phone Download is in the menu and in the footer', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/about');
  await page.getByRole('button', { name: 'Menu' }).click();
  const menuLink = page.locator('#mobile-menu').getByRole('link', { name: 'Download' });
  await expect(menuLink).toBeVisible();
  await expect(menuLink).toHaveAttribute('href', '/download');
  const footerLink = page.locator('footer').getByRole('link', { name: /Download/ });
  await expect(footerLink).toHaveAttribute('href', '/download');
  await menuLink.click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Downloads');
});

test('a video whose thumbnail cannot load shows a plain play panel, not broken alt text', async ({ page, request }) => {
  const blogs = await getJson<ApiBlog[]>(request, '/api/blogs?limit=200');
  const video = blogs.find((b) => b.isVideo === '1' && /youtu/.test(b.video_link ?? ''))!;
  await page.route(/^https:\/\/i\.ytimg\.com\//, (route) => route.abort());
  await page.goto(`/blog/${video.id}`);
  const preview = page.getByRole('link', { name: /^Play video/ });
  await expect(preview).toHaveClass(/is-fallback/);
  await expect(preview.locator('img')).toHaveAttribute('alt', '');
  await expect(preview.locator('.video-label')).toBeVisible();
  await expect(preview.locator('.video-label')).toContainText('Play video');
  expect(await preview.locator('img').evaluate((img) => getComputedStyle(img).visibility)).toBe('hidden');
});

test('printed, an article is only the article, with link addresses written out', async ({ page, request }) => {
  await page.goto(`/blog/${(await longArticle(request)).id}`);
  await page.emulateMedia({ media: 'print' });
  for (const selector of ['header.site-header', 'footer.site-footer', '.social-float', 'form.comment-form']) {
    await expect(page.locator(selector)).toBeHidden();
  }
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  const link = page.locator('.article-content a[href^="http"]').first();
  const after = await link.evaluate((a) => getComputedStyle(a, '::after').content);
  expect(after).toContain(await link.getAttribute('href'));
  expect(await page.locator('body').evaluate((b) => getComputedStyle(b).color)).toBe('rgb(0, 0, 0)');
});

test('the dark theme follows the system setting', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto('/');
  const colours = await page.evaluate(() => ({
    body: getComputedStyle(document.body).backgroundColor,
    card: getComputedStyle(document.querySelector('.card')!).backgroundColor,
  }));
  expect(colours.body).toBe('rgb(11, 17, 32)');
  expect(colours.card).toBe('rgb(17, 24, 39)');
  await page.emulateMedia({ colorScheme: 'light' });
  expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(248, 250, 252)');
});
