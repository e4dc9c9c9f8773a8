import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import type { ApiBlog } from '../support/api-types.ts';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../support/server.ts';
import { getJson, waitForIsland, waitForNavScript } from './site-support.ts';

/**
 * What a reader does on the public site, in real Chromium against the real server with the demo
 * content (tests/e2e/global-setup.ts). Expectations are read from the public API, not hard-coded.
 */

test.describe('home page', () => {
  test('the carousel advances every 5 seconds and wraps around', async ({ page, request }) => {
    const slides = await getJson<Array<{ title: string }>>(request, '/api/carousel');
    expect(slides.length).toBeGreaterThanOrEqual(2);
    await page.clock.install();
    await page.goto('/');
    await waitForIsland(page, 'Carousel');
    const carousel = page.locator('section.carousel');
    const caption = carousel.locator('.carousel-slide:not([hidden]) figcaption');
    await expect(caption).toHaveText(slides[0]!.title);
    await page.clock.runFor(4000);
    await expect(caption).toHaveText(slides[0]!.title);
    for (let i = 1; i <= slides.length; i++) {
      await page.clock.runFor(1100);
      await expect(caption).toHaveText(slides[i % slides.length]!.title);
      await page.clock.runFor(3900);
    }
    await expect(carousel.locator('.carousel-dot[aria-current="true"]')).toHaveAttribute(
      'aria-label',
      `Slide 1: ${slides[0]!.title}`,
    );
  });

  test('the carousel has previous/next buttons and dots, and pauses while focused', async ({ page, request }) => {
    const slides = await getJson<Array<{ title: string }>>(request, '/api/carousel');
    const last = slides.length - 1;
    await page.clock.install();
    await page.goto('/');
    await waitForIsland(page, 'Carousel');
    const carousel = page.locator('section.carousel');
    const caption = carousel.locator('.carousel-slide:not([hidden]) figcaption');
    await carousel.getByRole('button', { name: 'Previous slide' }).click();
    await expect(caption).toHaveText(slides[last]!.title);
    await carousel.getByRole('button', { name: 'Next slide' }).click();
    await expect(caption).toHaveText(slides[0]!.title);
    await carousel.getByRole('button', { name: 'Next slide' }).click();
    await expect(caption).toHaveText(slides[1]!.title);
    await carousel.getByRole('button', { name: `Slide ${last + 1}: ${slides[last]!.title}` }).click();
    await expect(caption).toHaveText(slides[last]!.title);

    // Focus is inside (the dot) and the pointer is over it: the slides stay put.
    await page.clock.runFor(12_000);
    await expect(caption).toHaveText(slides[last]!.title);
    // Arrow keys move while focus is inside.
    await page.keyboard.press('ArrowRight');
    await expect(caption).toHaveText(slides[0]!.title);

    // Focus and pointer leave: it moves on again.
    await page.mouse.move(5, 5);
    await page.locator('#latest-heading').click();
    await page.clock.runFor(5100);
    await expect(caption).toHaveText(slides[1]!.title);
  });

  test("on a phone a slide's caption sits under its picture, on a wider screen over its foot", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/');
    await waitForIsland(page, 'Carousel');
    const slide = page.locator('section.carousel .carousel-slide:not([hidden])');
    const picture = (await slide.locator('img').boundingBox())!;
    const caption = (await slide.locator('figcaption').boundingBox())!;
    // Two lines of white words over a drawing read as neither: below it they read as a title.
    expect(caption.y).toBeGreaterThanOrEqual(picture.y + picture.height - 1);
    // The whole picture shows: a 16:9 slide is not cropped to another shape.
    expect(picture.width / picture.height).toBeCloseTo(16 / 9, 1);

    await page.setViewportSize({ width: 1280, height: 900 });
    const wide = (await slide.locator('img').boundingBox())!;
    const wideCaption = (await slide.locator('figcaption').boundingBox())!;
    expect(wideCaption.y + wideCaption.height).toBeLessThanOrEqual(wide.y + wide.height + 1);
    expect(wideCaption.y).toBeGreaterThan(wide.y + wide.height / 2);
  });

  test('the carousel stands still for readers who prefer reduced motion', async ({ page, request }) => {
    const slides = await getJson<Array<{ title: string }>>(request, '/api/carousel');
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.clock.install();
    await page.goto('/');
    await waitForIsland(page, 'Carousel');
    const caption = page.locator('section.carousel .carousel-slide:not([hidden]) figcaption');
    await page.clock.runFor(16_000);
    await expect(caption).toHaveText(slides[0]!.title);
    await page.getByRole('button', { name: 'Next slide' }).click();
    await expect(caption).toHaveText(slides[1]!.title);
  });

  test('page buttons move through the articles', async ({ page, request }) => {
    const blogs = await getJson<ApiBlog[]>(request, '/api/blogs?limit=200');
    await page.goto('/');
    const grid = page.locator('ul.article-grid');
    await expect(grid.locator('> li')).toHaveCount(6);
    await expect(grid.getByRole('heading').first()).toHaveText(blogs[0]!.title);
    const pages = page.getByRole('navigation', { name: 'Home pages' });
    await expect(pages.getByRole('link')).toHaveCount(Math.ceil(blogs.length / 6));
    await pages.getByRole('link', { name: 'Page 2' }).click();
    await expect(page).toHaveURL(/\/\?page=2$/);
    await expect(grid.getByRole('heading').first()).toHaveText(blogs[6]!.title);
    await expect(pages.getByRole('link', { name: 'Page 2' })).toHaveAttribute('aria-current', 'page');
    await grid
      .getByRole('link', { name: /^Read More/ })
      .first()
      .click();
    await expect(page).toHaveURL(new RegExp(`/blog/${blogs[6]!.id}$`));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(blogs[6]!.title);
  });

  test('the breaking ticker shows the recent articles twice and can be paused', async ({ page, request }) => {
    const recent = await getJson<Array<{ title: string }>>(request, '/api/blogs/recent');
    await page.goto('/');
    const ticker = page.getByRole('region', { name: 'Breaking news' });
    await expect(ticker.locator('.ticker-track li')).toHaveCount(recent.length * 2);
    await expect(ticker.getByRole('link')).toHaveCount(recent.length);
    await waitForIsland(page, 'BreakingTicker');
    const pause = ticker.getByRole('button', { name: /Pause/ });
    await pause.click();
    await expect(ticker.getByRole('button', { name: /Play/ })).toHaveAttribute('aria-pressed', 'true');
  });
});

test.describe('navigation', () => {
  test('the nav search goes to /blogs?search=... and ignores blank text', async ({ page }) => {
    await page.goto('/');
    await waitForNavScript(page);
    const search = page.locator('.nav-search').getByRole('searchbox');
    await expect(search).toHaveAttribute('placeholder', 'Search...');
    // Every page load the search asks for; a blank one would be asked for before the real one.
    const loads: string[] = [];
    page.on('request', (request) => {
      if (request.isNavigationRequest()) loads.push(new URL(request.url()).pathname + new URL(request.url()).search);
    });
    await search.fill('   ');
    await search.press('Enter');
    await expect(page).toHaveURL(/\/$/);
    await search.fill('Newton laws');
    await search.press('Enter');
    await expect(page).toHaveURL(/\/blogs\?search=Newton%20laws$/);
    expect(loads).toEqual(['/blogs?search=Newton%20laws']);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Search Results for: "Newton laws"');
    await expect(page.locator('main').getByRole('heading', { level: 2 }).first()).toContainText('Newton');
  });

  test('category links in the nav filter the article list', async ({ page, request }) => {
    const categories = await getJson<Array<{ id: number; name: string }>>(request, '/api/categories');
    await page.goto('/');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: categories[1]!.name }).click();
    await expect(page).toHaveURL(new RegExp(`/blogs\\?category=${categories[1]!.id}$`));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(categories[1]!.name);
    await expect(page.locator('main .category-label')).toHaveText(categories[1]!.name);

    const third = categories[2]!;
    await page.getByRole('navigation', { name: 'More categories' }).getByRole('link', { name: third.name }).click();
    await expect(page).toHaveURL(new RegExp(`/blogs\\?category=${third.id}$`));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(third.name);
    const list = page.getByRole('navigation', { name: 'Article pages' });
    if ((await list.count()) > 0) {
      await list.getByRole('link', { name: 'Page 2' }).click();
      await expect(page).toHaveURL(new RegExp(`/blogs\\?category=${third.id}&page=2$`));
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(third.name);
    }
  });

  test('on a phone the menu button opens Home, Articles, every category and search', async ({ page, request }) => {
    const categories = await getJson<Array<{ id: number; name: string }>>(request, '/api/categories');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/');
    await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Download' })).toBeHidden();
    const toggle = page.getByRole('button', { name: 'Menu' });
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    const mobile = page.getByRole('navigation', { name: 'Mobile' });
    await expect(mobile).toBeHidden();
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await expect(mobile.getByRole('link')).toHaveText(['Home', 'Articles', ...categories.map((c) => c.name)]);
    await expect(page.locator('#mobile-menu').getByRole('searchbox')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(mobile).toBeHidden();
    await expect(toggle).toBeFocused();
    await toggle.click();
    await mobile.getByRole('link', { name: 'Articles' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('All Articles');
  });

  test('the floating social links are shown by default and the toggle hides and shows them', async ({ page }) => {
    await page.goto('/about');
    const toggle = page.getByRole('button', { name: 'Social links' });
    const links = page.getByRole('complementary', { name: 'Social links' }).getByRole('link');
    await expect(links).toHaveCount(3);
    await expect(links.first()).toBeVisible();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(page.getByRole('link', { name: /^WhatsApp/ })).toBeHidden();
    await toggle.click();
    await expect(page.getByRole('link', { name: /^WhatsApp/ })).toBeVisible();
    await expect(page.getByRole('link', { name: /^YouTube/ }).last()).toBeVisible();
  });

  test('the nav shows Login to visitors and Dashboard, the username and Log Out once signed in', async ({ page }) => {
    await page.goto('/contact');
    await waitForNavScript(page);
    const auth = page.locator('.nav-auth');
    await expect(auth.getByRole('link', { name: 'Login' })).toHaveAttribute('href', '/login');
    const origin = new URL(page.url()).origin;
    const login = await page.request.post('/api/users/login', {
      data: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
      headers: { Origin: origin },
    });
    expect(login.status()).toBe(200);
    const { username } = (await login.json()) as { username: string };
    await page.goto('/contact');
    await expect(auth.getByRole('link', { name: 'Dashboard' })).toHaveAttribute('href', '/admin');
    await expect(auth).toContainText(username);
    await expect(auth.getByRole('link', { name: 'Log Out' })).toHaveAttribute('href', '/logout');
  });
});

test.describe('article page', () => {
  test('shows every section, plays the video only when asked, and counts the view once', async ({ page, request }) => {
    const blogs = await getJson<ApiBlog[]>(request, '/api/blogs?limit=200');
    const rich =
      blogs.find((b) => b.pdf_drive_link && b.pay_link && b.form_name) ?? blogs.find((b) => b.pdf_drive_link && b.pay_link)!;
    const before = await getJson<ApiBlog>(request, `/api/blogs/${rich.id}`);
    const clickCalls: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'PUT' && /\/api\/blogs\/\d+\/click$/.test(r.url())) clickCalls.push(new URL(r.url()).pathname);
    });
    const click = page.waitForRequest((r) => r.method() === 'PUT' && r.url().endsWith(`/api/blogs/${rich.id}/click`));
    await page.goto(`/blog/${rich.id}`);
    await click;
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(rich.title);
    await expect(page.locator('.badge-pdf')).toHaveText('PDF');
    await expect(page.getByRole('link', { name: 'Download Attached PDF' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Support This Content' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Proceed to Payment' })).toHaveAttribute('href', rich.pay_link!);
    if (rich.form_name) {
      await expect(page.getByRole('heading', { name: rich.form_name })).toBeVisible();
      await expect(page.getByRole('link', { name: rich.form_link! })).toBeVisible();
    }
    for (const site of ['Facebook', 'Twitter', 'LinkedIn', 'WhatsApp']) {
      const link = page.getByRole('link', { name: `Share on ${site}` });
      await expect(link).toBeVisible();
      expect(await link.getAttribute('href')).toContain(encodeURIComponent(`/blog/${rich.id}`));
    }
    await expect(page.getByRole('heading', { name: /^Comments \(\d+\)$/ })).toBeVisible();
    await expect.poll(async () => (await getJson<ApiBlog>(request, `/api/blogs/${rich.id}`)).clicks).toBe(before.clicks + 1);

    const video = blogs.find((b) => b.isVideo === '1' && /youtu/.test(b.video_link ?? ''))!;
    const youtube: string[] = [];
    page.on('request', (r) => {
      if (/youtube\.com|ytimg\.com|googlevideo/.test(r.url()) && r.resourceType() !== 'image') youtube.push(r.url());
    });
    await page.goto(`/blog/${video.id}`);
    // Still once: the article page, now left, asked to count it once and only once.
    expect(clickCalls.filter((call) => call === `/api/blogs/${rich.id}/click`)).toEqual([`/api/blogs/${rich.id}/click`]);
    expect((await getJson<ApiBlog>(request, `/api/blogs/${rich.id}`)).clicks).toBe(before.clicks + 1);
    await expect(page.locator('iframe')).toHaveCount(0);
    expect(youtube).toEqual([]);
    await page.getByRole('link', { name: /^Play video/ }).click();
    const player = page.locator('.video-frame iframe');
    await expect(player).toHaveAttribute('src', /^https:\/\/www\.youtube\.com\/embed\/[\w-]{11}\?autoplay=1$/);
    await expect(page).toHaveURL(new RegExp(`/blog/${video.id}$`));
  });

  test('posting a comment shows it; blank fields are refused; a failed post keeps the text', async ({ page, request }) => {
    const blogs = await getJson<ApiBlog[]>(request, '/api/blogs?limit=200');
    const blog = blogs[2]!;
    const before = (await getJson<ApiBlog>(request, `/api/blogs/${blog.id}`)).comments ?? [];
    await page.goto(`/blog/${blog.id}`);
    const section = page.locator('section.comments');
    await section.scrollIntoViewIfNeeded();
    await waitForIsland(page, 'CommentsSection');
    await expect(section.getByRole('heading', { level: 2 })).toHaveText(`Comments (${before.length})`);

    const text = section.getByRole('textbox', { name: 'Comment' });
    const name = section.getByRole('textbox', { name: 'Name' });
    const submit = section.getByRole('button', { name: 'Post Comment' });
    let posts = 0;
    page.on('request', (r) => {
      if (r.method() === 'POST' && r.url().endsWith(`/api/blogs/${blog.id}/comment`)) posts++;
    });
    await text.fill('   ');
    await name.fill('  ');
    await submit.click();
    await expect(section.getByRole('alert')).toBeVisible();
    expect(posts).toBe(0);

    // A failing server: the error is only logged and nothing typed is lost.
    const errors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    await page.route(`**/api/blogs/${blog.id}/comment`, (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":"internal","message":"boom"}' }),
    );
    await text.fill('This one fails');
    await name.fill('Tester');
    await submit.click();
    await expect.poll(() => errors.some((e) => e.includes('Could not post the comment'))).toBe(true);
    await expect(text).toHaveValue('This one fails');
    await expect(name).toHaveValue('Tester');
    await page.unroute(`**/api/blogs/${blog.id}/comment`);

    const unique = `Clear explanation, thanks! ${Date.now()}`;
    await text.fill(unique);
    await name.fill('Playwright Reader');
    const post = page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith(`/api/blogs/${blog.id}/comment`));
    const reload = page.waitForRequest((r) => r.method() === 'GET' && r.url().endsWith(`/api/blogs/${blog.id}`));
    await submit.click();
    const body = (await post).postDataJSON() as { comment: string; username: string; contact: string };
    expect(body.comment).toBe(unique);
    expect(body.username).toBe('Playwright Reader');
    expect(body.contact.trim()).not.toBe('');
    await reload;
    await expect(section.getByText(unique)).toBeVisible();
    await expect(section.getByRole('heading', { level: 2 })).toHaveText(`Comments (${before.length + 1})`);
    await expect(text).toHaveValue('');
    await expect(section.getByRole('status')).toHaveText('Your comment was posted.');

    // The stored page now carries it too.
    await page.reload();
    await expect(page.locator('section.comments').getByText(unique)).toBeVisible();
  });
});

test.describe('downloads and 404', () => {
  test('the downloads list links to articles and its PDF links really download', async ({ page, request }) => {
    const blogs = await getJson<ApiBlog[]>(request, '/api/blogs?limit=200');
    const withPdf = blogs.filter((b) => b.pdf_drive_link);
    await page.goto('/download');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Downloads');
    const rows = page.locator('table.downloads tbody tr');
    await expect(rows).toHaveCount(withPdf.length);
    await expect(rows.first()).toContainText(withPdf[0]!.title);

    const pdfLink = rows.first().getByRole('link', { name: /^Pdf Download/ });
    const href = (await pdfLink.getAttribute('href'))!;
    const response = await page.request.get(href);
    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toBe('application/pdf');
    const download = page.waitForEvent('download');
    await pdfLink.click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/\.pdf$/);
    const saved = await file.path();
    expect(fs.readFileSync(saved).subarray(0, 5).toString()).toBe('%PDF-');

    await rows
      .first()
      .getByRole('link', { name: /^Read More/ })
      .click();
    await expect(page).toHaveURL(new RegExp(`/blog/${withPdf[0]!.id}$`));
  });

  test('an unknown address shows Page Not Found with status 404 and a way home', async ({ page }) => {
    const response = await page.goto('/this/does/not/exist');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page Not Found');
    const unknownBlog = await page.goto('/blog/987654');
    expect(unknownBlog?.status()).toBe(404);
    await page.getByRole('link', { name: 'Go Back Home' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('heading', { name: 'Latest Articles' })).toBeVisible();
  });
});
