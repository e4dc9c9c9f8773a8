import { expect, test, type Page } from '@playwright/test';
import { banner, findBlogId, logInThroughForm, prepareTestFiles, waitForEditor } from './admin-support.ts';
import { url } from './site-support.ts';

/**
 * The admin's day (issue 5, "Done when"): log in, write an article in the editor with a heading,
 * bold, underline, colour and a link, attach a featured image and a PDF, see it live on the home
 * page, the article page and /download, edit it, delete it.
 */
test.describe.configure({ mode: 'serial' });

const files = prepareTestFiles();
let page: Page;
const title = `Photosynthesis field notes ${Date.now().toString(36)}`;
const editedTitle = `${title} (revised)`;
let blogId = 0;
let contentBefore = '';
let imageBefore = '';

test.beforeAll(async ({ browser }) => {
  page = await browser.newPage();
});

test.afterAll(async () => {
  await page?.close();
});

/** Holds Shift and steps left over `count` characters (selecting what was just typed). */
async function selectBack(count: number) {
  await page.keyboard.down('Shift');
  for (let i = 0; i < count; i++) await page.keyboard.press('ArrowLeft');
  await page.keyboard.up('Shift');
}

test('logs in through the login screen and lands on the blog table', async () => {
  await logInThroughForm(page);
  await expect(page.getByText('Admin Panel', { exact: true })).toBeVisible();
  await expect(page.getByRole('columnheader', { name: 'Title' })).toBeVisible();
  await expect(page.getByRole('columnheader', { name: 'Author' })).toBeVisible();
  await expect(page.getByRole('columnheader', { name: 'Actions' })).toBeVisible();
  await expect(page.getByRole('link', { name: /^Edit / }).first()).toBeVisible();
});

test('creates an article typed in the editor, with a featured image and a PDF', async () => {
  await page.goto(url('/admin/blogs-create'));
  await waitForEditor(page);
  await page.getByLabel('Title').fill(title);
  await page.getByLabel('Category').selectOption({ label: 'Biology' });
  await page.getByLabel('Featured image').setInputFiles(files.png);
  await page.getByLabel('PDF', { exact: true }).setInputFiles(files.pdf);

  const editor = page.locator('.editor-content');
  await editor.click();
  const toolbar = page.getByRole('toolbar', { name: 'Formatting' });
  await toolbar.getByRole('button', { name: 'Heading 2' }).click();
  await expect(toolbar.getByRole('button', { name: 'Heading 2' })).toHaveAttribute('aria-pressed', 'true');
  await page.keyboard.type('Key facts');
  await page.keyboard.press('Enter');
  await expect(toolbar.getByRole('button', { name: 'Heading 2' })).toHaveAttribute('aria-pressed', 'false');

  await page.keyboard.type('Remember ');
  await page.keyboard.press('ControlOrMeta+b');
  await page.keyboard.type('this rule');
  await page.keyboard.press('ControlOrMeta+b');
  await page.keyboard.type(' and ');

  await toolbar.getByRole('button', { name: 'Underline' }).click();
  await expect(toolbar.getByRole('button', { name: 'Underline' })).toHaveAttribute('aria-pressed', 'true');
  await page.keyboard.type('this step');
  await toolbar.getByRole('button', { name: 'Underline' }).click();
  await page.keyboard.type(', written in red');

  await selectBack('in red'.length);
  await toolbar.getByRole('button', { name: 'Text colour' }).click();
  await page.getByRole('group', { name: 'Text colour' }).getByRole('button', { name: 'Red' }).click();
  await page.keyboard.press('End');
  await page.keyboard.type('. Read the syllabus');
  await selectBack('the syllabus'.length);
  await toolbar.getByRole('button', { name: 'Link' }).click();
  await page.getByLabel('Link address').fill('https://example.org/syllabus');
  await page.getByRole('button', { name: 'Apply link' }).click();

  await expect(editor.locator('h2', { hasText: 'Key facts' })).toBeVisible();
  await expect(editor.locator('strong', { hasText: 'this rule' })).toBeVisible();
  await expect(editor.locator('u', { hasText: 'this step' })).toBeVisible();
  await expect(editor.locator('span[style*="color"]', { hasText: 'in red' })).toBeVisible();
  await expect(editor.locator('a[href="https://example.org/syllabus"]', { hasText: 'the syllabus' })).toBeVisible();

  await page.getByRole('button', { name: 'Create Blog' }).click();
  await page.waitForURL(url('/admin/blogs-manage'));
  await expect(banner(page)).toContainText('Success!');
  await expect(banner(page)).toContainText('Blog post created successfully.');
  await expect(banner(page)).toContainText(/Live in \d+(\.\d)? ms/);
  blogId = await findBlogId(page, title);
  expect(blogId).toBeGreaterThan(0);
});

test('the article is live on the home page, its own page and /download', async () => {
  await page.goto(url('/'));
  await expect(page.locator('main').getByText(title).first()).toBeVisible();

  const response = await page.goto(url(`/blog/${blogId}`));
  expect(response?.status()).toBe(200);
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  const content = page.locator('.article-content');
  await expect(content.locator('h2', { hasText: 'Key facts' })).toBeVisible();
  await expect(content.locator('strong', { hasText: 'this rule' })).toBeVisible();
  await expect(content.locator('u', { hasText: 'this step' })).toBeVisible();
  await expect(content.locator('span[style*="color"]', { hasText: 'in red' })).toBeVisible();
  await expect(content.locator('a[href="https://example.org/syllabus"]')).toHaveText('the syllabus');
  contentBefore = await content.innerHTML();

  const image = page.locator('img.article-image');
  await expect(image).toBeVisible();
  imageBefore = (await image.getAttribute('src')) ?? '';
  expect(imageBefore).toMatch(/^\/uploads\//);
  const imageResponse = await page.request.get(url(imageBefore));
  expect(imageResponse.status()).toBe(200);

  const pdfLink = page.getByRole('link', { name: 'Download Attached PDF' });
  const pdfHref = await pdfLink.getAttribute('href');
  expect(pdfHref).toBeTruthy();
  const pdf = await page.request.get(url(pdfHref!));
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()['content-type']).toContain('application/pdf');
  expect((await pdf.body()).subarray(0, 5).toString('latin1')).toBe('%PDF-');

  await page.goto(url('/download'));
  await expect(page.getByText(title, { exact: true })).toBeVisible();
});

test('edit loads every field and the content, saves, and stays on the page', async () => {
  await page.goto(url(`/admin/edit-blog/${blogId}`));
  await waitForEditor(page);
  await expect(page.getByLabel('Title')).toHaveValue(title);
  await expect(page.getByLabel('Category').locator('option:checked')).toHaveText('Biology');
  await expect(page.getByRole('img', { name: 'Current featured image' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Current PDF' })).toBeVisible();
  const editor = page.locator('.editor-content');
  await expect(editor.locator('h2', { hasText: 'Key facts' })).toBeVisible();
  await expect(editor.locator('u', { hasText: 'this step' })).toBeVisible();
  await expect(editor.locator('span[style*="color"]', { hasText: 'in red' })).toBeVisible();
  await expect(editor.locator('a[href="https://example.org/syllabus"]')).toBeVisible();

  await page.getByLabel('Title').fill(editedTitle);
  await page.getByRole('button', { name: 'Update Blog' }).click();
  await expect(banner(page)).toContainText('Blog post updated successfully.');
  await expect(banner(page)).toContainText(/Live in \d+(\.\d)? ms/);
  expect(page.url()).toBe(url(`/admin/edit-blog/${blogId}`));
  await expect(page.locator('.progress')).toHaveText('');
  await expect(page.getByRole('button', { name: 'Update Blog' })).toBeEnabled();

  await page.goto(url(`/blog/${blogId}`));
  await expect(page.getByRole('heading', { level: 1, name: editedTitle })).toBeVisible();
  // Saved without touching the content: it comes back exactly as it was (nothing lost on load).
  expect(await page.locator('.article-content').innerHTML()).toBe(contentBefore);
  // No new image chosen: the old one is kept.
  await expect(page.locator('img.article-image')).toHaveAttribute('src', imageBefore);
});

test('a new featured image replaces the old one on edit', async () => {
  await page.goto(url(`/admin/edit-blog/${blogId}`));
  await waitForEditor(page);
  await page.getByLabel('Featured image').setInputFiles(files.secondPng);
  await page.getByRole('button', { name: 'Update Blog' }).click();
  await expect(banner(page)).toContainText('Blog post updated successfully.');
  await page.goto(url(`/blog/${blogId}`));
  const src = await page.locator('img.article-image').getAttribute('src');
  expect(src).toMatch(/^\/uploads\//);
  expect(src).not.toBe(imageBefore);
});

test('deletes the article after the confirmation', async () => {
  await page.goto(url('/admin/blogs-manage'));
  await page.getByLabel('Search blogs').fill(editedTitle);
  const remove = page.getByRole('button', { name: `Delete ${editedTitle}`, exact: true });
  await expect(remove).toBeVisible();
  let confirmText = '';
  page.once('dialog', (dialog) => {
    confirmText = dialog.message();
    void dialog.accept();
  });
  await remove.click();
  await expect(banner(page)).toContainText('Success!');
  await expect(banner(page)).toContainText(/Live in \d+(\.\d)? ms/);
  expect(confirmText).toBe('Are you sure you want to delete this blog?');
  await expect(remove).toHaveCount(0);

  const response = await page.goto(url(`/blog/${blogId}`));
  expect(response?.status()).toBe(404);
  await page.goto(url('/'));
  await expect(page.locator('main').getByText(editedTitle)).toHaveCount(0);
});

test('dismissing the delete confirmation keeps the article', async () => {
  await page.goto(url('/admin/blogs-manage'));
  const firstDelete = page.getByRole('button', { name: /^Delete / }).first();
  const label = await firstDelete.getAttribute('aria-label');
  page.once('dialog', (dialog) => void dialog.dismiss());
  await firstDelete.click();
  await page.reload();
  await expect(page.getByRole('button', { name: label!, exact: true })).toBeVisible();
});
