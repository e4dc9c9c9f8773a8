import { AxeBuilder } from '@axe-core/playwright';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { banner, findBlogId, logInAsAdmin, waitForEditor } from './admin-support.ts';
import { url } from './site-support.ts';

/**
 * The publisher's day (issue 12, "Done when"): write a draft, preview it, schedule it, watch it go
 * live by itself, edit it, restore the earlier revision, and recover an unsaved edit after the tab
 * was closed. Then axe over the new admin screens: no violation.
 */
test.describe.configure({ mode: 'serial' });

let context: BrowserContext;
let page: Page;
const title = `Tide tables draft ${Date.now().toString(36)}`;
const editedTitle = `${title} (checked)`;
let blogId = 0;

test.beforeAll(async ({ browser }) => {
  context = await browser.newContext();
  page = await context.newPage();
  await logInAsAdmin(page);
});

test.afterAll(async () => {
  await context?.close();
});

/** The datetime-local value (the browser's own time zone) a few seconds from now. */
function soon(target: Page, seconds: number): Promise<string> {
  return target.evaluate((s) => {
    const d = new Date(Date.now() + s * 1000);
    const pad = (n: number) => String(n).padStart(2, '0');
    return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
  }, seconds);
}

test('writes a draft: only admins see it', async () => {
  await page.goto(url('/admin/blogs-create'));
  await waitForEditor(page);
  await page.getByLabel('Title').fill(title);
  await page.getByLabel('Category').selectOption({ index: 1 });
  await page.getByLabel('Status').selectOption('draft');
  await page.locator('.editor-content').click();
  await page.keyboard.type('High water comes twice a day.');
  await page.getByRole('button', { name: 'Create Blog' }).click();
  await page.waitForURL(url('/admin/blogs-manage'));
  await expect(banner(page)).toContainText('Blog post created successfully.');
  blogId = await findBlogId(page, title);
  const row = page.getByRole('row').filter({ hasText: title });
  await expect(row.getByRole('cell', { name: 'Draft', exact: true })).toBeVisible();

  await page.getByLabel('Status', { exact: true }).selectOption('draft');
  await expect(page.getByRole('link', { name: `Edit ${title}`, exact: true })).toBeVisible();
  expect((await page.request.get(url(`/blog/${blogId}`), { headers: { cookie: '' } })).status()).toBe(404);
});

test('previews it as readers will see it', async () => {
  await page.getByRole('link', { name: `Preview: ${title}` }).click();
  await page.waitForURL(url(`/admin/preview/${blogId}`));
  await expect(page.getByRole('note', { name: 'Preview' })).toContainText(
    'this is how readers will see this article. It is a draft.',
  );
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
});

test('schedules it and watches it go live without doing anything', async () => {
  await page.goto(url(`/admin/edit-blog/${blogId}`));
  await waitForEditor(page);
  await page.getByLabel('Status').selectOption('scheduled');
  await page.getByLabel('Publish at').fill(await soon(page, 6));
  await page.getByRole('button', { name: 'Update Blog' }).click();
  await expect(banner(page)).toContainText('Blog post updated successfully.');
  await expect(page.getByRole('link', { name: 'Preview' })).toBeVisible();

  const reader = await page.context().browser()!.newContext();
  try {
    const readerPage = await reader.newPage();
    await expect
      .poll(async () => (await readerPage.request.get(url(`/blog/${blogId}`))).status(), { timeout: 300_000, intervals: [500] })
      .toBe(200);
    // The article is public from its due time (the visibility rule), a moment before the scheduler
    // has published it and refreshed the home page: a reader there may still get the page before.
    await expect
      .poll(async () => (await readerPage.request.get(url('/'))).text(), { timeout: 300_000, intervals: [500] })
      .toContain(title);
    await readerPage.goto(url('/'));
    await expect(readerPage.locator('main').getByText(title).first()).toBeVisible();
  } finally {
    await reader.close();
  }
});

test('edits it, then restores the earlier revision from the list', async () => {
  await page.goto(url(`/admin/edit-blog/${blogId}`));
  await waitForEditor(page);
  await expect(page.getByLabel('Status')).toHaveValue('published');
  await page.getByLabel('Title').fill(editedTitle);
  await page.getByRole('button', { name: 'Update Blog' }).click();
  await expect(banner(page)).toContainText('Blog post updated successfully.');
  await expect(page.getByRole('link', { name: 'View on site' })).toHaveAttribute('href', `/blog/${blogId}`);

  const revisions = page
    .getByRole('region', { name: 'Revisions' })
    .or(page.locator('section[aria-labelledby="revisions-heading"]'));
  const published = revisions.getByRole('listitem').filter({ hasText: 'Published on schedule' });
  await expect(published).toBeVisible();
  await published.getByRole('button', { name: /Show changes/ }).click();
  // Only added words in the title (underlined, named for screen readers); the text is unchanged.
  await expect(published.locator('ins')).toHaveText('[added: (checked)]', { useInnerText: false });
  await expect(published.locator('del')).toHaveCount(0);
  await expect(published.getByText('No changes.')).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('revision-view.png'), fullPage: true });

  page.once('dialog', (dialog) => void dialog.accept());
  await published.getByRole('button', { name: /Restore/ }).click();
  await expect(banner(page)).toContainText('Revision restored.');
  await expect(page.getByLabel('Title')).toHaveValue(title);
  await expect(revisions.getByRole('listitem').first()).toContainText('Restored by');
  expect(await (await page.request.get(url(`/blog/${blogId}`))).text()).toContain(`<h1 dir="auto">${title}</h1>`);
});

test('recovers an unsaved edit after the tab was closed', async () => {
  await page.goto(url(`/admin/edit-blog/${blogId}`));
  await waitForEditor(page);
  await page.getByLabel('Title').fill(`${title} unsaved`);
  await page.locator('.editor-content').click();
  await page.keyboard.press('ControlOrMeta+End');
  await page.keyboard.type(' Neap tides are smaller.');
  // The copy is kept within a moment of the change.
  await expect
    .poll(() => page.evaluate((id) => window.localStorage.getItem(`blog-form-copy:${id}`) ?? '', String(blogId)))
    .toContain('Neap tides are smaller.');
  await page.close({ runBeforeUnload: false });

  page = await context.newPage();
  await page.goto(url(`/admin/edit-blog/${blogId}`));
  await waitForEditor(page);
  const offer = page.getByRole('region', { name: 'Unsaved changes found' });
  await expect(offer).toBeVisible();
  await offer.getByRole('button', { name: 'Recover unsaved changes' }).click();
  await expect(page.getByLabel('Title')).toHaveValue(`${title} unsaved`);
  await expect(page.locator('.editor-content')).toContainText('Neap tides are smaller.');
  await page.getByRole('button', { name: 'Update Blog' }).click();
  await expect(banner(page)).toContainText('Blog post updated successfully.');
});

test('leaving with unsaved changes asks first', async () => {
  await page.goto(url(`/admin/edit-blog/${blogId}`));
  await waitForEditor(page);
  await page.getByLabel('Title').fill(`${title} leaving`);
  await expect
    .poll(() => page.evaluate((id) => window.localStorage.getItem(`blog-form-copy:${id}`) ?? '', String(blogId)))
    .toContain('leaving');
  const asked = new Promise<string>((resolve) =>
    page.once('dialog', (dialog) => void dialog.dismiss().then(() => resolve(dialog.type()))),
  );
  void page.getByRole('link', { name: 'Back to blogs' }).click();
  expect(await asked).toBe('beforeunload');
  await expect(page).toHaveURL(url(`/admin/edit-blog/${blogId}`));
});

test('the new admin screens have no accessibility violations', async () => {
  const tags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];
  const found: string[] = [];
  const check = async (name: string) => {
    const result = await new AxeBuilder({ page }).withTags(tags).analyze();
    found.push(
      ...result.violations.map(
        (v) => `${name}: ${v.id} (${v.impact}) ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
      ),
    );
  };
  // A fresh page: no unsaved edit and no leave warning from the test before.
  page = await context.newPage();
  await page.goto(url('/admin/dashboard'));
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await page.getByText('Views per day as a table').click();
  await page.screenshot({ path: test.info().outputPath('dashboard.png'), fullPage: true });
  await check('dashboard');
  await page.goto(url('/admin/blogs-manage'));
  await expect(page.getByRole('link', { name: `Edit ${title}` }).first())
    .toBeVisible()
    .catch(() => undefined);
  await check('blog list');
  await page.goto(url(`/admin/edit-blog/${blogId}`));
  await waitForEditor(page);
  await page.getByLabel('Status').selectOption('scheduled');
  const first = page.locator('.revision-list li').first();
  await first.getByRole('button', { name: /Show changes/ }).click();
  await expect(first.locator('.revision-diff')).toBeVisible();
  await check('edit form with revisions');
  await page.goto(url(`/admin/preview/${blogId}`));
  await check('preview');
  expect(found).toEqual([]);
});
