import { expect, test, type Page } from '@playwright/test';
import { logInAsAdmin, waitForEditor } from './admin-support.ts';
import { getJson, waitForIsland, waitForNavScript } from './site-support.ts';

/**
 * The Content-Security-Policy in real Chromium (issue 6, "Headers and policy"): the main pages
 * load, their islands hydrate and work, the YouTube player loads on click, and the browser
 * reports no violation at all. Read-only against the shared e2e server. YouTube is answered
 * locally so the test does not depend on the network.
 */

interface Violation {
  directive: string;
  blocked: string;
  sample: string;
}

/** The last report the page sends, after all others (see watchPolicy). */
const FLUSHED = 'flushed-marker';

/** Collects every CSP violation the page reports, across navigations, and CSP console errors. */
async function watchPolicy(page: Page): Promise<() => Promise<string[]>> {
  const found: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Content-Security-Policy/i.test(message.text())) found.push(message.text());
  });
  await page.exposeFunction('__reportCspViolation', (v: Violation) => {
    found.push(`${v.directive} blocked ${v.blocked || '(inline)'} ${v.sample}`);
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = (window as unknown as { __reportCspViolation: (v: Violation) => void }).__reportCspViolation;
      report({ directive: event.effectiveDirective, blocked: event.blockedURI, sample: event.sample });
    });
  });
  return async () => {
    // Reports travel through the binding in the order the page sent them: once a marker sent after
    // the page's pending tasks (a violation's event is one) has arrived, every earlier report has too.
    await page.evaluate(async (marker) => {
      await new Promise((resolve) => setTimeout(resolve, 0));
      const report = (window as unknown as { __reportCspViolation: (v: Violation) => Promise<void> }).__reportCspViolation;
      await report({ directive: marker, blocked: '', sample: '' });
    }, FLUSHED);
    return found.filter((line) => !line.startsWith(FLUSHED));
  };
}

/** YouTube's player and thumbnails, served locally: the test checks the policy, not the network. */
async function fakeYouTube(page: Page): Promise<void> {
  await page.route(/^https:\/\/(www\.youtube\.com|www\.youtube-nocookie\.com)\//, (route) =>
    route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>player</title><p>player</p>' }),
  );
  await page.route(/^https:\/\/i\.ytimg\.com\//, (route) =>
    route.fulfill({
      status: 200,
      contentType: 'image/png',
      body: Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64'),
    }),
  );
}

test.beforeEach(async ({ page }) => {
  await fakeYouTube(page);
});

test('home: no violation, the carousel island hydrates and moves', async ({ page, request }) => {
  const violations = await watchPolicy(page);
  const slides = await getJson<Array<{ title: string }>>(request, '/api/carousel');
  expect(slides.length).toBeGreaterThanOrEqual(2);
  await page.goto('/');
  await waitForIsland(page, 'Carousel');
  const caption = page.locator('section.carousel .carousel-slide:not([hidden]) figcaption');
  await expect(caption).toHaveText(slides[0]!.title);
  await page.locator('section.carousel').getByRole('button', { name: 'Next slide' }).click();
  await expect(caption).toHaveText(slides[1]!.title);
  // The inline (hashed) script of the header still runs: the mobile menu toggles.
  await page.setViewportSize({ width: 480, height: 900 });
  const toggle = page.locator('.nav-toggle');
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  expect(await violations()).toEqual([]);
});

test('an article with a video: coloured text shows, the player loads on click, no violation', async ({ page, request }) => {
  const violations = await watchPolicy(page);
  const blogs = await getJson<Array<{ id: number; isVideo: string; video_link: string | null; content: string }>>(
    request,
    '/api/blogs?limit=100',
  );
  const video = blogs.find((b) => b.isVideo === '1' && /youtu/.test(b.video_link ?? '') && /style="color/.test(b.content));
  expect(video, 'a demo article with a YouTube video and coloured text').toBeTruthy();
  await page.goto(`/blog/${video!.id}`);
  // Colours in article text are style attributes: the policy must let them through.
  const coloured = page.locator('.article-content span[style*="color"]').first();
  await expect(coloured).toBeVisible();
  expect(await coloured.evaluate((el) => getComputedStyle(el).color)).not.toBe(
    await page
      .locator('.article-content p')
      .first()
      .evaluate((el) => getComputedStyle(el).color),
  );

  const preview = page.locator('a.video-preview');
  await expect(preview.locator('img')).toHaveJSProperty('complete', true);
  expect(await preview.locator('img').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  await preview.click();
  const player = page.locator('.video-frame iframe');
  await expect(player).toHaveAttribute('src', /^https:\/\/www\.youtube\.com\/embed\/[\w-]{11}\?autoplay=1$/);
  const frame = page.frameLocator('.video-frame iframe');
  await expect(frame.locator('p')).toHaveText('player');
  expect(await violations()).toEqual([]);
});

for (const path of ['/blogs', '/download', '/about']) {
  test(`${path}: no violation`, async ({ page }) => {
    const violations = await watchPolicy(page);
    const response = await page.goto(path);
    expect(response?.status()).toBe(200);
    await waitForNavScript(page);
    expect(await violations()).toEqual([]);
  });
}

test('/login and /register: the forms hydrate and work, no violation', async ({ page }) => {
  const violations = await watchPolicy(page);
  await page.goto('/login');
  const logIn = page.getByRole('button', { name: 'Log In' });
  await expect(logIn).toBeEnabled();
  await page.getByLabel('Email').fill('nobody@example.test');
  await page.getByLabel('Password').fill('wrong-password-123');
  await logIn.click();
  await expect(page.getByRole('alert').first()).toBeVisible();

  await page.goto('/register');
  await expect(page.getByRole('button', { name: 'Register' })).toBeEnabled();
  expect(await violations()).toEqual([]);
});

test('admin create page: the editor hydrates, takes typing and colours, no violation', async ({ page }) => {
  const violations = await watchPolicy(page);
  await logInAsAdmin(page);
  await page.goto('/admin/blogs-create');
  await waitForEditor(page);
  const editor = page.locator('.editor-content');
  await editor.click();
  await page.keyboard.type('Typed under the policy');
  await expect(editor).toContainText('Typed under the policy');
  // A colour mark is a style attribute written by ProseMirror.
  await page.keyboard.down('Shift');
  for (let i = 0; i < 'policy'.length; i++) await page.keyboard.press('ArrowLeft');
  await page.keyboard.up('Shift');
  const toolbar = page.getByRole('toolbar', { name: 'Formatting' });
  await toolbar.getByRole('button', { name: 'Background colour' }).click();
  await page.getByRole('group', { name: 'Background colour' }).getByRole('button', { name: 'Yellow' }).click();
  await expect(editor.locator('span[style*="background-color"]')).toHaveText('policy');
  expect(await editor.locator('span[style*="background-color"]').evaluate((el) => getComputedStyle(el).backgroundColor)).toBe(
    'rgb(254, 240, 138)',
  );
  // Other admin screens with islands.
  for (const path of ['/admin/blogs-manage', '/admin/category', '/admin/carousel', '/admin/comments-manage']) {
    await page.goto(path);
    await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
  }
  expect(await violations()).toEqual([]);
});
