import { readFile } from 'node:fs/promises';
import { expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { buildAccount, buildBlogBody, uniqueName } from '../support/builders.ts';
import { makePdf, makePng } from '../support/files.ts';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../support/server.ts';
import { url, waitForIsland, waitForNavScript } from './site-support.ts';

/**
 * A reader's library in Chromium against the real server: saving from an article and from a
 * card, the /library page, reading offline (saved articles with their image and PDF, the offline
 * page for anything else), the new version after an edit, and a signed-out device's saves
 * joining the account at login. Articles are made through the admin API in their own context.
 */

interface Article {
  id: number;
  title: string;
}

let admin: APIRequestContext;
let categoryId: number;

test.beforeAll(async ({ playwright }) => {
  admin = await playwright.request.newContext({ baseURL: url(''), extraHTTPHeaders: { Origin: url('') } });
  expect((await admin.post('/api/users/login', { data: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD } })).status()).toBe(200);
  const categories = (await (await admin.get('/api/categories')).json()) as Array<{ id: number }>;
  categoryId = categories[0]!.id;
});

test.afterAll(async () => {
  await admin?.dispose();
});

async function upload(field: 'image' | 'pdfFile', name: string, mimeType: string, buffer: Buffer): Promise<string> {
  const path = field === 'image' ? '/api/blogs/upload-image-cloudinary' : '/api/blogs/upload-pdf-local';
  const response = await admin.post(path, { multipart: { [field]: { name, mimeType, buffer } } });
  expect(response.status()).toBe(201);
  const body = (await response.json()) as { url?: string; link?: string };
  return (body.url ?? body.link)!;
}

async function createArticle(overrides: Record<string, unknown> = {}): Promise<Article> {
  const title = uniqueName('Library article');
  const response = await admin.post('/api/blogs', { data: buildBlogBody(categoryId, { title, ...overrides }) });
  expect(response.status()).toBe(201);
  return { id: ((await response.json()) as { id: number }).id, title };
}

const deleteArticles = async (articles: Article[]) => {
  for (const article of articles) await admin.delete(`/api/blogs/${article.id}`);
};

async function newReader(browser: Browser): Promise<{ page: Page; account: ReturnType<typeof buildAccount> }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const account = buildAccount();
  expect((await page.request.post(url('/api/users/register'), { data: account })).status()).toBe(201);
  return { page, account };
}

async function logIn(page: Page, account: { email: string; password: string }): Promise<void> {
  expect(
    (await page.request.post(url('/api/users/login'), { data: { email: account.email, password: account.password } })).status(),
  ).toBe(200);
}

/** Opens a page and waits until the service worker controls it and the nav has painted. */
async function openControlled(page: Page, path: string): Promise<void> {
  await page.goto(url(path));
  await waitForNavScript(page);
  await page.waitForFunction(async () => {
    await navigator.serviceWorker.ready;
    return navigator.serviceWorker.controller !== null;
  });
}

async function saveFromArticle(page: Page, article: Article): Promise<void> {
  await openControlled(page, `/blog/${article.id}`);
  const save = page.locator(`button[data-save-article="${article.id}"]`);
  await expect(save).toHaveAccessibleName(new RegExp(`^Save ?: ${article.title}$`));
  await save.click();
  await expect(save).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByRole('status').filter({ hasText: 'Saved to your library' })).toBeVisible();
}

async function openLibraryUntilOffline(page: Page, articles: Article[]): Promise<void> {
  await page.goto(url('/library'));
  await waitForIsland(page, 'LibraryView');
  for (const article of articles) {
    const item = page.locator(`[data-saved-id="${article.id}"]`);
    await expect(item.getByRole('link', { name: article.title, exact: true })).toBeVisible();
    await expect(item).toContainText('Available offline');
  }
}

test('a signed-in reader saves from an article and a card, and sees the library with recent reading and comments', async ({
  browser,
}) => {
  const articles = [await createArticle(), await createArticle()];
  const { page, account } = await newReader(browser);
  await logIn(page, account);
  try {
    // Opening the article records it as read: the library below must not be opened before that
    // landed (on a busy machine the comment can be posted first).
    const readRecorded = page.waitForResponse(
      (response) => response.url().endsWith(`/api/library/progress/${articles[0]!.id}`) && response.request().method() === 'PUT',
    );
    await saveFromArticle(page, articles[0]!);
    expect((await readRecorded).ok()).toBe(true);
    await page.getByRole('textbox', { name: 'Comment' }).fill('Very clear, thank you');
    await page.getByRole('textbox', { name: 'Name' }).fill(account.username);
    await page.getByRole('button', { name: 'Post Comment' }).click();
    await expect(page.locator('.comment-text', { hasText: 'Very clear, thank you' })).toBeVisible();

    await openControlled(page, `/blogs?category=${categoryId}`);
    const cardSave = page.locator(`.card button[data-save-article="${articles[1]!.id}"]`);
    await expect(cardSave).toHaveAttribute('aria-pressed', 'false');
    await cardSave.click();
    await expect(cardSave).toHaveAttribute('aria-pressed', 'true');

    await expect(page.locator('.nav-auth').getByRole('link', { name: 'My library' })).toBeVisible();
    await page.locator('.nav-auth').getByRole('link', { name: 'My library' }).click();
    await waitForIsland(page, 'LibraryView');
    const saved = page.locator('[data-library-saved] li');
    await expect(saved).toHaveCount(2);
    await expect(saved.first()).toContainText(articles[1]!.title);
    await expect(page.locator('[data-library-recent]')).toContainText(articles[0]!.title);
    await expect(page.locator('[data-library-comments]')).toContainText('Very clear, thank you');
    await expect(page.locator('[data-library-comments]')).toContainText('Published');
    await expect(page.getByRole('link', { name: 'Account settings' })).toHaveAttribute('href', '/account');

    await page.getByRole('button', { name: new RegExp(`^Remove ?: ${articles[1]!.title}$`) }).click();
    await expect(saved).toHaveCount(1);
    await page.reload();
    await waitForIsland(page, 'LibraryView');
    await expect(page.locator('[data-library-saved] li')).toHaveCount(1);
  } finally {
    await page.context().close();
    await deleteArticles(articles);
  }
});

test('saved articles open offline with their image and PDF; other pages show the offline page; an edit shows after reload', async ({
  browser,
}) => {
  const image = await upload('image', 'diagram.png', 'image/png', await makePng(640, 360));
  const pdf = await upload('pdfFile', 'offline-notes.pdf', 'application/pdf', makePdf('Offline notes'));
  const withFiles = await createArticle({ image, pdf_link: pdf, content: '<p>First version of the notes.</p>' });
  const plain = await createArticle({ content: '<p>Plain notes.</p>' });
  const unsaved = await createArticle();
  const { page, account } = await newReader(browser);
  await logIn(page, account);
  const context = page.context();
  try {
    await saveFromArticle(page, withFiles);
    await saveFromArticle(page, plain);
    await openLibraryUntilOffline(page, [withFiles, plain]);
    const pdfHref = await page
      .locator(`[data-saved-id="${withFiles.id}"]`)
      .getByRole('link', { name: /^PDF/ })
      .getAttribute('href');
    expect(pdfHref).toBe(pdf);

    await context.setOffline(true);
    // From the saved list (the article is under Recently read too).
    await page.locator(`[data-saved-id="${withFiles.id}"]`).getByRole('link', { name: withFiles.title, exact: true }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(withFiles.title);
    await expect(page.locator('.article-content')).toContainText('First version of the notes.');
    await page.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>('img.article-image');
      return img !== null && img.complete && img.naturalWidth > 0;
    });
    const file = await page.evaluate(async (href) => {
      const response = await fetch(href);
      return { status: response.status, start: (await response.text()).slice(0, 5) };
    }, pdfHref!);
    expect(file).toEqual({ status: 200, start: '%PDF-' });
    // A PDF viewer reads by byte ranges: the kept file answers them, cut to the range asked.
    const part = await page.evaluate(async (href) => {
      const response = await fetch(href, { headers: { Range: 'bytes=1-3' } });
      return { status: response.status, range: response.headers.get('content-range'), text: await response.text() };
    }, pdfHref!);
    expect(part).toMatchObject({ status: 206, range: expect.stringMatching(/^bytes 1-3\/\d+$/), text: 'PDF' });

    await page.goto(url('/library'));
    await waitForIsland(page, 'LibraryView');
    await expect(page.getByText('You are offline.')).toBeVisible();
    // The reader opens the PDF from the library itself, as a student would, not only by script.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.locator(`[data-saved-id="${withFiles.id}"]`).getByRole('link', { name: /^PDF/ }).click(),
    ]);
    expect(await download.failure()).toBeNull();
    expect((await readFile(await download.path())).subarray(0, 5).toString()).toBe('%PDF-');
    // Opened as a page of its own (a new tab, the installed app): the PDF too, not the offline page.
    const [opened] = await Promise.all([page.waitForEvent('download'), page.goto(url(pdfHref!)).catch(() => null)]);
    expect(await opened.failure()).toBeNull();
    expect((await readFile(await opened.path())).subarray(0, 5).toString()).toBe('%PDF-');
    await page.goto(url('/library'));
    await waitForIsland(page, 'LibraryView');
    await page.locator(`[data-saved-id="${plain.id}"]`).getByRole('link', { name: plain.title, exact: true }).click();
    await expect(page.locator('.article-content')).toContainText('Plain notes.');

    await page.goto(url(`/blog/${unsaved.id}`));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('You are offline');

    await context.setOffline(false);
    const edited = await admin.put(`/api/blogs/${withFiles.id}`, {
      data: buildBlogBody(categoryId, {
        title: withFiles.title,
        image,
        pdf_link: pdf,
        content: '<p>Second version, corrected.</p>',
      }),
    });
    expect(edited.status()).toBe(200);
    await page.goto(url(`/blog/${withFiles.id}`));
    await page.reload();
    await expect(page.locator('.article-content')).toContainText('Second version, corrected.');
    // The offline copy is the new version too.
    await context.setOffline(true);
    await page.reload();
    await expect(page.locator('.article-content')).toContainText('Second version, corrected.');
    await context.setOffline(false);
  } finally {
    await context.close();
    await deleteArticles([withFiles, plain, unsaved]);
  }
});

test('a signed-out reader saves on the device; the save joins the account at login and leaves the device at logout', async ({
  browser,
}) => {
  const article = await createArticle();
  const { page, account } = await newReader(browser);
  try {
    await saveFromArticle(page, article);
    await page.goto(url('/library'));
    await waitForIsland(page, 'LibraryView');
    await expect(page.getByText('saved on this device only')).toBeVisible();
    await expect(page.locator(`[data-saved-id="${article.id}"]`)).toBeVisible();

    await logIn(page, account);
    await page.reload();
    await waitForIsland(page, 'LibraryView');
    await expect(page.getByRole('link', { name: 'Account settings' })).toBeVisible();
    await expect(page.locator(`[data-saved-id="${article.id}"]`)).toBeVisible();
    const library = (await (await page.request.get(url('/api/library'))).json()) as { saved: Array<{ id: number }> };
    expect(library.saved.map((entry) => entry.id)).toEqual([article.id]);

    await page.goto(url('/logout'));
    await page.waitForURL(url('/login'));
    // The saved list and every kept page or upload are gone (the login page's own scripts may be kept again).
    const left = await page.evaluate(async () => {
      const kept: string[] = [];
      for (const name of await caches.keys()) {
        if (name.startsWith('shell-')) continue;
        for (const request of await (await caches.open(name)).keys()) {
          const path = new URL(request.url).pathname;
          if (!path.startsWith('/_astro/') && path !== '/__sw/recent-index') kept.push(`${name} ${path}`);
        }
      }
      return { list: localStorage.getItem('library.saved'), kept };
    });
    expect(left).toEqual({ list: null, kept: [] });
  } finally {
    await page.context().close();
    await deleteArticles([article]);
  }
});

test('a full library and a device without room say so: the device keeps at most a library, and a save without room for its copy stays a save', async ({
  browser,
}) => {
  const pdf = await upload(
    'pdfFile',
    'big-notes.pdf',
    'application/pdf',
    makePdf(
      'Big notes',
      Array.from({ length: 400 }, (_, i) => `Line ${i} of the notes, long enough to weigh something.`),
    ),
  );
  const article = await createArticle({ pdf_link: pdf, content: '<p>Notes for a full device.</p>' });
  const context = await browser.newContext();
  const page = await context.newPage();
  try {
    // Signed out: the device's list already holds as many articles as a library may.
    await openControlled(page, `/blog/${article.id}`);
    await page.evaluate(() => {
      const full = Array.from({ length: 100 }, (_, i) => ({ id: 900000 + i, title: `Kept ${i}`, device: true }));
      localStorage.setItem('library.saved', JSON.stringify(full));
    });
    await page.reload();
    await waitForNavScript(page);
    const save = page.locator(`button[data-save-article="${article.id}"]`);
    await save.click();
    await expect(page.getByText('Your library is full (100 articles). Remove an article before saving another.')).toBeVisible();
    await expect(save).toHaveAttribute('aria-pressed', 'false');

    // Room in the list, none in the browser's storage: the save stands and the reader is told.
    await page.evaluate(() => localStorage.removeItem('library.saved'));
    await page.reload();
    await waitForNavScript(page);
    const usage = await page.evaluate(async () => (await navigator.storage.estimate()).usage ?? 0);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Storage.overrideQuotaForOrigin', { origin: url(''), quotaSize: usage + 4096 });
    await save.click();
    await expect(page.getByText('this device has no room left to keep it for offline reading')).toBeVisible();
    await expect(save).toHaveAttribute('aria-pressed', 'true');
    const kept = await page.evaluate(async (id) => caches.has(`library-article-${id}`), article.id);
    expect(kept).toBe(false);
    // The same button takes it out again.
    await save.click();
    await expect(page.getByText('Removed from your library.')).toBeVisible();
    await expect(save).toHaveAttribute('aria-pressed', 'false');
    expect(await page.evaluate(() => localStorage.getItem('library.saved'))).toBeNull();
  } finally {
    await context.close();
    await deleteArticles([article]);
  }
});
