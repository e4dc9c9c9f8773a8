import { expect, test, type Page } from '@playwright/test';
import { banner, logInAsAdminBeforeEach, prepareTestFiles, waitForEditor } from './admin-support.ts';
import { buildBlogBody } from '../support/builders.ts';
import { getJson, url } from './site-support.ts';

/**
 * The blog form's rules (docs/product.md#validation-rules), busy state (section 4) and messages (section 8), each
 * shown for its own case, and how it behaves after a save. Only the last case saves anything (a
 * draft of its own); the others stop at validation or at a faked answer.
 */
const files = prepareTestFiles();
logInAsAdminBeforeEach();

async function openCreateForm(page: Page) {
  await page.goto(url('/admin/blogs-create'));
  await waitForEditor(page);
}

/** Fills what every valid post needs, so one case at a time can be broken. */
async function fillRequired(page: Page) {
  await page.getByLabel('Title').fill('Validation case');
  await page.getByLabel('Category').selectOption({ label: 'Physics' });
}

async function submit(page: Page) {
  await page.getByRole('button', { name: 'Create Blog' }).click();
}

test('title and category are required; the category select starts on a disabled placeholder', async ({ page }) => {
  await openCreateForm(page);
  const placeholder = page.getByLabel('Category').locator('option', { hasText: 'Select a category' });
  await expect(placeholder).toBeDisabled();
  await expect(page.getByLabel('Category')).toHaveValue('');

  let posted = false;
  await page.route('**/api/blogs', (route) => {
    posted = true;
    return route.continue();
  });
  await submit(page);
  await expect(page.getByText('Title is required.')).toBeVisible();
  await expect(page.getByText('Please select a category.')).toBeVisible();
  await expect(page.getByLabel('Title')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByLabel('Title')).toBeFocused();
  expect(posted).toBe(false);

  await page.getByLabel('Title').fill('Now with a title');
  await expect(page.getByText('Title is required.')).toHaveCount(0);
});

test('the payment link is optional but must be a URL', async ({ page }) => {
  await openCreateForm(page);
  await fillRequired(page);
  await page.getByLabel('Payment link').fill('pay me later');
  await submit(page);
  await expect(page.getByText('Payment link must be a valid URL (http or https).')).toBeVisible();
  await expect(page.getByLabel('Payment link')).toBeFocused();
});

test('a video post needs a video link, and it must be a URL', async ({ page }) => {
  await openCreateForm(page);
  await fillRequired(page);
  await expect(page.getByLabel('Video link')).toHaveCount(0);
  await page.getByRole('group', { name: 'Video post?' }).getByLabel('Yes').check();
  await expect(page.getByLabel('Video link')).toBeVisible();
  await submit(page);
  await expect(page.getByText('Video link is required for a video post.')).toBeVisible();
  await page.getByLabel('Video link').fill('not a link');
  await submit(page);
  await expect(page.getByText('Video link must be a valid URL (http or https).')).toBeVisible();
  // Switching the toggle off hides the field and drops its rule.
  await page.getByRole('group', { name: 'Video post?' }).getByLabel('No').check();
  await expect(page.getByLabel('Video link')).toHaveCount(0);
});

test('a form link needs a form name and a form link, and the link must be a URL', async ({ page }) => {
  await openCreateForm(page);
  await fillRequired(page);
  await expect(page.getByLabel('Form name')).toHaveCount(0);
  await page.getByRole('group', { name: 'Add a form link?' }).getByLabel('Yes').check();
  await submit(page);
  await expect(page.getByText('Form name is required when a link is added.')).toBeVisible();
  await expect(page.getByText('Form link is required when a link is added.')).toBeVisible();
  await page.getByLabel('Form name').fill('Register for the workshop');
  await page.getByLabel('Form link').fill('forms/signup');
  await submit(page);
  await expect(page.getByText('Form link must be a valid URL (http or https).')).toBeVisible();
  await expect(page.getByText('Form name is required when a link is added.')).toHaveCount(0);
});

test('the featured image takes images only and the PDF field takes PDFs only', async ({ page }) => {
  await openCreateForm(page);
  await expect(page.getByLabel('Featured image')).toHaveAttribute('accept', 'image/*');
  await expect(page.getByLabel('PDF', { exact: true })).toHaveAttribute('accept', '.pdf,application/pdf');
  await fillRequired(page);
  await page.getByLabel('Featured image').setInputFiles(files.text);
  await page.getByLabel('PDF', { exact: true }).setInputFiles(files.png);
  await submit(page);
  await expect(page.getByText('Featured image must be an image file.')).toBeVisible();
  await expect(page.getByText('Only PDF files can be uploaded.')).toBeVisible();
});

test('while busy it shows each step and the submit button is disabled', async ({ page }) => {
  await openCreateForm(page);
  await fillRequired(page);
  await page.getByLabel('Featured image').setInputFiles(files.png);
  await page.getByLabel('PDF', { exact: true }).setInputFiles(files.pdf);

  // Each call waits until the test has seen its step, then gets a made-up answer: nothing is stored.
  const release: Record<string, () => void> = {};
  const held = (name: string) => new Promise<void>((resolve) => (release[name] = resolve));
  const imageHeld = held('image');
  const pdfHeld = held('pdf');
  const saveHeld = held('save');
  await page.route('**/api/blogs/upload-image-cloudinary', async (route) => {
    await imageHeld;
    await route.fulfill({ status: 201, json: { url: '/uploads/images/fake-w1600.webp' } });
  });
  await page.route('**/api/blogs/upload-pdf-local', async (route) => {
    await pdfHeld;
    await route.fulfill({ status: 201, json: { link: '/uploads/pdfs/fake.pdf' } });
  });
  let sentBody: Record<string, unknown> = {};
  await page.route('**/api/blogs', async (route) => {
    sentBody = route.request().postDataJSON() as Record<string, unknown>;
    await saveHeld;
    await route.fulfill({ status: 400, json: { error: 'invalid_input', message: 'Held for the test.' } });
  });

  const button = page.getByRole('button', { name: 'Create Blog' });
  await button.click();
  const progress = page.locator('.progress');
  await expect(progress).toHaveText('Uploading featured image...');
  await expect(button).toBeDisabled();
  release.image!();
  await expect(progress).toHaveText('Uploading PDF...');
  await expect(button).toBeDisabled();
  release.pdf!();
  await expect(progress).toHaveText('Saving blog post...');
  await expect(button).toBeDisabled();
  release.save!();
  await expect(banner(page)).toContainText('Error!');
  await expect(banner(page)).toContainText('Error: Held for the test.');
  await expect(button).toBeEnabled();
  await expect(progress).toHaveText('');
  expect(sentBody).toMatchObject({
    title: 'Validation case',
    image: '/uploads/images/fake-w1600.webp',
    pdf_link: '/uploads/pdfs/fake.pdf',
    isVideo: '0',
  });
  expect(typeof sentBody.content).toBe('string');
  expect(typeof sentBody.content_source).toBe('string');
});

test('a failure without a server message shows "An unknown error occurred"', async ({ page }) => {
  await openCreateForm(page);
  await fillRequired(page);
  await page.route('**/api/blogs', (route) => route.abort());
  await submit(page);
  await expect(banner(page)).toContainText('Error!');
  await expect(banner(page)).toContainText('An unknown error occurred');
  await banner(page).getByRole('button', { name: 'Close message' }).click();
  await expect(banner(page)).toHaveCount(0);
});

test('a server refusal shows "Error: " with the server\'s message', async ({ page }) => {
  await openCreateForm(page);
  await fillRequired(page);
  // A category that disappeared after the page loaded: only the server can tell.
  await page.getByLabel('Category').evaluate((select: HTMLSelectElement) => {
    select.options[select.options.length - 1]!.value = '987654';
  });
  await page.getByLabel('Category').selectOption({ index: (await page.getByLabel('Category').locator('option').count()) - 1 });
  await submit(page);
  await expect(banner(page)).toContainText('Error: The selected category does not exist.');
  // The server's field message also lands beside the field it names.
  await expect(page.locator('#blog-category-error')).toHaveText('The selected category does not exist.');
  await expect(page.getByLabel('Category')).toHaveAttribute('aria-invalid', 'true');
});

test('the edit address without an id says so', async ({ page }) => {
  await page.goto(url('/admin/edit-blog'));
  await expect(banner(page)).toContainText('Error!');
  await expect(banner(page)).toContainText('Blog ID not found in URL.');
  await expect(page.getByRole('button', { name: 'Update Blog' })).toHaveCount(0);
});

test('an article that cannot be loaded says "Failed to load blog data."', async ({ page }) => {
  await page.goto(url('/admin/edit-blog/99999999'));
  await expect(banner(page)).toContainText('Failed to load blog data.');
  await expect(page.getByRole('button', { name: 'Update Blog' })).toHaveCount(0);
});

test('after a successful create the form leaves for the list without asking to leave', async ({ page }) => {
  await openCreateForm(page);
  await fillRequired(page);
  await page.locator('.ProseMirror').click();
  await page.keyboard.type('Some content typed by hand.');
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.type());
    void dialog.accept();
  });
  // The save answers as the server would; nothing is stored.
  await page.route('**/api/blogs', (route) =>
    route.fulfill({ status: 201, json: { id: 987654, _id: 987654, title: 'Validation case', live_ms: 3 } }),
  );
  await submit(page);
  await page.waitForURL(url('/admin/blogs-manage'));
  expect(dialogs).toEqual([]);
});

test('a manual Update replaces the "Draft saved automatically" line', async ({ page }) => {
  const categories = await getJson<{ id: number }[]>(page.request, url('/api/categories'));
  const created = await page.request.post(url('/api/blogs'), {
    data: buildBlogBody(categories[0]!.id, { status: 'draft' }),
    headers: { Origin: url('') },
  });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: number };
  await page.goto(url(`/admin/edit-blog/${id}`));
  await waitForEditor(page);
  await page.locator('.ProseMirror').click();
  await page.keyboard.press('End');
  await page.keyboard.type(' More notes.');
  const status = page.locator('.autosave-status');
  await expect(status).toContainText('Draft saved automatically at');
  await page.getByLabel('Title').fill('Saved by hand');
  await page.getByRole('button', { name: 'Update Blog' }).click();
  await expect(banner(page)).toContainText('Success!');
  await expect(status).toHaveText('');
  // The draft goes again: as the newest article an admin sees, it would be what other tests pick.
  expect((await page.request.delete(url(`/api/blogs/${id}`), { headers: { Origin: url('') } })).status()).toBe(200);
});

test('with unsaved changes the form tells the server a save may come, so its render workers are started', async ({ page }) => {
  await openCreateForm(page);
  // Nothing unsaved yet: the first keystroke is what makes the form speak up.
  const told = page.waitForRequest((request) => request.url() === url('/api/admin/page-refresh') && request.method() === 'GET');
  await page.getByLabel('Title').fill('A save may come');
  const request = await told;
  expect((await request.response())?.status()).toBe(200);
});
