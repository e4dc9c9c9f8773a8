import { expect, test } from '@playwright/test';
import { banner, logInAsAdminBeforeEach, prepareTestFiles } from './admin-support.ts';
import { url } from './site-support.ts';

/** /admin/carousel: add and delete slides, the image rules and the messages of docs/product.md#validation-rules, #messages. */
const files = prepareTestFiles();
logInAsAdminBeforeEach();

test('adds a slide that shows on the home page, then deletes it after the confirmation', async ({ page }) => {
  const title = `Exam season starts ${Date.now().toString(36)}`;
  await page.goto(url('/admin/carousel'));
  await expect(page.getByText('Loading slides...')).toHaveCount(0);
  await page.getByLabel('Title').fill(title);
  await page.getByLabel('Image').setInputFiles(files.png);
  await page.getByRole('button', { name: 'Add Slide' }).click();
  await expect(banner(page)).toContainText('Success!');
  await expect(banner(page)).toContainText('Carousel item added successfully');
  await expect(banner(page)).toContainText(/Live in \d+(\.\d)? ms/);
  const item = page.locator('.slide-item').filter({ hasText: title });
  await expect(item).toBeVisible();
  await expect(item.locator('img')).toHaveAttribute('src', /^\/uploads\//);
  await expect(page.getByLabel('Title')).toHaveValue('');

  await page.goto(url('/'));
  await expect(page.getByText(title).first()).toBeAttached();

  await page.goto(url('/admin/carousel'));
  let confirmText = '';
  page.once('dialog', (dialog) => {
    confirmText = dialog.message();
    void dialog.accept();
  });
  await page.getByRole('button', { name: `Delete slide ${title}` }).click();
  await expect(banner(page)).toContainText('Carousel Deleted Successfully !');
  expect(confirmText).toBe('Are you sure you want to delete this slide?');
  await expect(page.locator('.slide-item').filter({ hasText: title })).toHaveCount(0);

  await page.goto(url('/'));
  await expect(page.getByText(title)).toHaveCount(0);
});

test('title and image are required; the image must be JPG, PNG, GIF or WEBP and at most 5MB', async ({ page }) => {
  let posted = false;
  await page.route('**/api/carousel', (route) => {
    if (route.request().method() === 'POST') posted = true;
    return route.continue();
  });
  await page.goto(url('/admin/carousel'));
  await page.getByRole('button', { name: 'Add Slide' }).click();
  await expect(page.getByText('Title is required.')).toBeVisible();
  await expect(page.getByText('Please select an image file to upload.')).toBeVisible();

  await page.getByLabel('Title').fill('A slide');
  await page.getByLabel('Image').setInputFiles(files.text);
  await page.getByRole('button', { name: 'Add Slide' }).click();
  await expect(page.getByText('Image must be a JPG, PNG, GIF or WEBP file.')).toBeVisible();

  await page.getByLabel('Image').setInputFiles(files.bigPng);
  await page.getByRole('button', { name: 'Add Slide' }).click();
  await expect(page.getByText('Image must be at most 5MB.')).toBeVisible();
  expect(posted).toBe(false);
});

test("a refused upload shows the error's own message", async ({ page }) => {
  await page.goto(url('/admin/carousel'));
  await page.getByLabel('Title').fill('Not really an image');
  // Named and typed as a PNG, but the bytes are text: only the server can tell.
  await page
    .getByLabel('Image')
    .setInputFiles({ name: 'fake.png', mimeType: 'image/png', buffer: Buffer.from('not a png at all') });
  await page.getByRole('button', { name: 'Add Slide' }).click();
  await expect(banner(page)).toContainText('Error!');
  await expect(banner(page).locator('.message-text')).not.toHaveText('');
});

test('a list that cannot load says to check the server', async ({ page }) => {
  await page.route('**/api/carousel', (route) => route.abort());
  await page.goto(url('/admin/carousel'));
  await expect(banner(page)).toContainText('Failed to fetch slides. Please make sure the server is running.');
});
