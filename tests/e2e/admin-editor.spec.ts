import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { logInAsAdminBeforeEach, prepareTestFiles, waitForEditor } from './admin-support.ts';
import { url } from './site-support.ts';

/**
 * The rich-text editor and the admin layout in a real browser: keyboard use of the toolbar, the
 * link protocol rule (docs/product.md#validation-rules), paste, image upload, colours, and the side menu that
 * folds below 768 px. Nothing is saved.
 */
const files = prepareTestFiles();
logInAsAdminBeforeEach();

async function openEditor(page: Page) {
  await page.goto(url('/admin/blogs-create'));
  await waitForEditor(page);
  await page.locator('.editor-content').click();
}

async function selectBack(page: Page, count: number) {
  await page.keyboard.down('Shift');
  for (let i = 0; i < count; i++) await page.keyboard.press('ArrowLeft');
  await page.keyboard.up('Shift');
}

/** Fires a paste on the editor with the given clipboard content. */
async function paste(page: Page, data: Record<string, string>) {
  await page.locator('.editor-content').evaluate((element, items) => {
    const transfer = new DataTransfer();
    for (const [type, value] of Object.entries(items)) transfer.setData(type, value);
    element.dispatchEvent(new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true }));
  }, data);
}

test('the toolbar is one tab stop, arrow keys move along it, and buttons work from the keyboard', async ({ page }) => {
  await openEditor(page);
  const toolbar = page.getByRole('toolbar', { name: 'Formatting' });
  const labels = await toolbar.getByRole('button').evaluateAll((buttons) => buttons.map((b) => b.getAttribute('aria-label')));
  // The ten formatting buttons first and in their order, then the study blocks' (docs/study-content.md).
  expect(labels.slice(0, 10)).toEqual([
    'Heading 1',
    'Heading 2',
    'Heading 3',
    'Bold',
    'Italic',
    'Underline',
    'Link',
    'Image',
    'Text colour',
    'Background colour',
  ]);
  expect(labels.slice(10)).toEqual([
    'Bulleted list',
    'Numbered list',
    'Task list',
    'Quote',
    'Inline code',
    'Code block',
    'Table',
    'Formula',
    'Callout',
    'Footnote',
    'Horizontal rule',
    'Keyboard shortcuts',
  ]);
  await expect(toolbar.locator('button[tabindex="0"]')).toHaveCount(1);

  await page.keyboard.press('Shift+Tab');
  await expect(toolbar.getByRole('button', { name: 'Heading 1' })).toBeFocused();
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
  const bold = toolbar.getByRole('button', { name: 'Bold' });
  await expect(bold).toBeFocused();
  await expect(bold).toHaveAttribute('aria-pressed', 'false');
  await page.keyboard.press('Enter');
  await expect(bold).toHaveAttribute('aria-pressed', 'true');
  // The command hands the keyboard back to the text.
  await expect(page.locator('.editor-content')).toBeFocused();
  await page.keyboard.type('bold words');
  await expect(page.locator('.editor-content strong')).toHaveText('bold words');

  await page.keyboard.press('Shift+Tab');
  await expect(bold).toBeFocused();
  await page.keyboard.press('End');
  await expect(toolbar.getByRole('button', { name: 'Keyboard shortcuts' })).toBeFocused();
  await page.keyboard.press('Home');
  await expect(toolbar.getByRole('button', { name: 'Heading 1' })).toBeFocused();
  await page.keyboard.press('Space');
  await expect(page.locator('.editor-content h1')).toHaveText('bold words');
  await expect(toolbar.getByRole('button', { name: 'Heading 1' })).toHaveAttribute('aria-pressed', 'true');

  await page.keyboard.press('ControlOrMeta+u');
  await page.keyboard.type(' more');
  await expect(page.locator('.editor-content u')).toHaveText(' more');
});

test('links keep only http, https, mailto and tel', async ({ page }) => {
  await openEditor(page);
  const toolbar = page.getByRole('toolbar', { name: 'Formatting' });
  await page.keyboard.type('write to us');
  await selectBack(page, 'write to us'.length);
  await toolbar.getByRole('button', { name: 'Link' }).click();
  await expect(toolbar.getByRole('button', { name: 'Link' })).toHaveAttribute('aria-expanded', 'true');
  const address = page.getByLabel('Link address');
  await expect(address).toBeFocused();
  await address.fill('javascript:alert(1)');
  await page.getByRole('button', { name: 'Apply link' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Only http, https, mailto and tel links are allowed.' })).toBeVisible();
  await expect(page.locator('.editor-content a')).toHaveCount(0);

  await address.fill('mailto:office@example.org');
  await address.press('Enter');
  await expect(page.locator('.editor-content a')).toHaveAttribute('href', 'mailto:office@example.org');
  await expect(toolbar.getByRole('button', { name: 'Link' })).toHaveAttribute('aria-pressed', 'true');

  // Inside a link the panel edits that link; a bare host becomes https.
  await toolbar.getByRole('button', { name: 'Link' }).click();
  await expect(page.getByLabel('Link address')).toHaveValue('mailto:office@example.org');
  await page.getByLabel('Link address').fill('example.org/contact');
  await page.getByRole('button', { name: 'Apply link' }).click();
  await expect(page.locator('.editor-content a')).toHaveAttribute('href', 'https://example.org/contact');

  await toolbar.getByRole('button', { name: 'Link' }).click();
  await page.getByRole('button', { name: 'Remove link' }).click();
  await expect(page.locator('.editor-content a')).toHaveCount(0);
  await expect(page.locator('.editor-content')).toContainText('write to us');

  // Pasted HTML passes through the same rule: other protocols become a blank address.
  await page.keyboard.press('End');
  await paste(page, {
    'text/html':
      '<p><a href="javascript:alert(1)">bad</a> <a href="JaVa&#9;ScRiPt:alert(1)">worse</a> <a href="ftp://files.example.org/a">ftp</a> <a href="tel:+441234567">call</a> <a href="https://example.org/">web</a></p>',
    'text/plain': 'bad worse ftp call web',
  });
  const links = page.locator('.editor-content a');
  await expect(links).toHaveCount(5);
  expect(await links.evaluateAll((anchors) => anchors.map((a) => a.getAttribute('href')))).toEqual([
    '',
    '',
    '',
    'tel:+441234567',
    'https://example.org/',
  ]);
});

test('Escape closes a panel and returns to its button', async ({ page }) => {
  await openEditor(page);
  const trigger = page.getByRole('button', { name: 'Text colour' });
  await trigger.click();
  const panel = page.getByRole('group', { name: 'Text colour' });
  await expect(panel.getByRole('button', { name: 'Red' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(panel).toHaveCount(0);
  await expect(trigger).toBeFocused();
  await expect(trigger).toHaveAttribute('aria-expanded', 'false');
});

test('colours: text and background, and removing them', async ({ page }) => {
  await openEditor(page);
  const toolbar = page.getByRole('toolbar', { name: 'Formatting' });
  await page.keyboard.type('highlight me');
  await selectBack(page, 'me'.length);
  await toolbar.getByRole('button', { name: 'Background colour' }).click();
  await page.getByRole('group', { name: 'Background colour' }).getByRole('button', { name: 'Yellow' }).click();
  const highlighted = page.locator('.editor-content span[style*="background-color"]');
  await expect(highlighted).toHaveText('me');
  await expect(toolbar.getByRole('button', { name: 'Background colour' })).toHaveAttribute('aria-pressed', 'true');

  // Select the whole line from its end. Not Home then Shift+End: the swatch handed focus back to the
  // editor a moment ago, and for 200 ms after a focus ProseMirror takes a caret at the very start of
  // the document for the browser resetting the selection and puts the old one ("me") back, so a
  // keystroke that fast is undone (no person types that fast; the test's keyboard does).
  await page.keyboard.press('End');
  await page.keyboard.press('Shift+Home');
  await expect.poll(() => page.evaluate(() => window.getSelection()?.toString())).toBe('highlight me');
  await toolbar.getByRole('button', { name: 'Text colour' }).click();
  await page.getByLabel('Custom colour').fill('#0f766e');
  await page.getByRole('button', { name: 'Apply colour' }).click();
  await expect(
    page
      .locator('.editor-content span[style*="color: rgb(15, 118, 110)"], .editor-content span[style*="color: #0f766e"]')
      .first(),
  ).toBeVisible();

  await toolbar.getByRole('button', { name: 'Text colour' }).click();
  await page.getByRole('group', { name: 'Text colour' }).getByRole('button', { name: 'Remove colour' }).click();
  await expect(page.locator('.editor-content span[style^="color"]')).toHaveCount(0);
  await expect(highlighted).toHaveText('me');
});

test('pasted markdown keeps underline and colours written as inline HTML', async ({ page }) => {
  await openEditor(page);
  await paste(page, {
    'text/plain':
      'Some <u>underlined</u> and <span style="color: #b91c1c">red</span> and <span style="background-color: #fef08a">marked</span> text.',
  });
  const content = page.locator('.editor-content');
  await expect(content.locator('u')).toHaveText('underlined');
  await expect(content.locator('span[style*="color"]:not([style*="background"])')).toHaveText('red');
  await expect(content.locator('span[style*="background-color"]')).toHaveText('marked');
  await expect(content).not.toContainText('<u>');
});

test('the image button uploads through the image endpoint and inserts the picture', async ({ page }) => {
  await openEditor(page);
  let uploads = 0;
  page.on('request', (request) => {
    if (request.url().endsWith('/api/blogs/upload-image-cloudinary') && request.method() === 'POST') uploads += 1;
  });
  await page.getByRole('toolbar', { name: 'Formatting' }).getByRole('button', { name: 'Image', exact: true }).click();
  const panel = page.getByRole('group', { name: 'Insert image' });
  await panel.getByLabel('Image file').setInputFiles(files.secondPng);
  await expect(panel.getByLabel('Description (alt text)')).toHaveValue('cell sketch');
  await panel.getByLabel('Description (alt text)').fill('Sketch of a plant cell');
  await panel.getByRole('button', { name: 'Insert image' }).click();
  const image = page.locator('.editor-content img:not(.ProseMirror-separator)');
  await expect(image).toHaveAttribute('src', /^\/uploads\/images\/.+\.webp$/);
  await expect(image).toHaveAttribute('alt', 'Sketch of a plant cell');
  expect(uploads).toBe(1);
  const loaded = await image.evaluate((img: HTMLImageElement) =>
    img.complete ? img.naturalWidth : new Promise((r) => (img.onload = () => r(img.naturalWidth))),
  );
  expect(loaded).toBeGreaterThan(0);
});

test('a pasted image file is uploaded too, never inlined', async ({ page }) => {
  await openEditor(page);
  const bytes = fs.readFileSync(files.secondPng).toString('base64');
  await page.locator('.editor-content').evaluate((element, base64) => {
    const binary = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    const transfer = new DataTransfer();
    transfer.items.add(new File([binary], 'pasted-chart.png', { type: 'image/png' }));
    element.dispatchEvent(new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true }));
  }, bytes);
  const image = page.locator('.editor-content img:not(.ProseMirror-separator)');
  await expect(image).toHaveAttribute('src', /^\/uploads\/images\/.+\.webp$/);
  await expect(image).toHaveAttribute('alt', 'pasted chart');
});

test('create and edit share the same toolbar', async ({ page }) => {
  await openEditor(page);
  const names = async () =>
    page
      .getByRole('toolbar', { name: 'Formatting' })
      .getByRole('button')
      .evaluateAll((buttons) => buttons.map((b) => b.getAttribute('aria-label')));
  const onCreate = await names();
  const blogs = (await (await page.request.get(url('/api/blogs?limit=1'))).json()) as Array<{ id: number }>;
  await page.goto(url(`/admin/edit-blog/${blogs[0]!.id}`));
  await waitForEditor(page);
  expect(await names()).toEqual(onCreate);
});

test('the side menu folds behind a toggle below 768 px', async ({ page }) => {
  await page.setViewportSize({ width: 600, height: 900 });
  await page.goto(url('/admin/category'));
  const menu = page.getByRole('navigation', { name: 'Admin Panel' });
  const toggle = page.getByRole('button', { name: 'Menu' });
  await expect(toggle).toBeVisible();
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(menu).toBeHidden();
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  await expect(menu).toBeVisible();
  for (const name of ['Blogs', 'Create', 'Comments', 'Categories', 'Carousel', 'Home']) {
    await expect(menu.getByRole('link', { name, exact: true })).toBeVisible();
  }
  await expect(menu.getByRole('link', { name: 'Categories' })).toHaveAttribute('aria-current', 'page');
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  await expect(toggle).toBeFocused();

  await page.setViewportSize({ width: 1024, height: 900 });
  await expect(toggle).toBeHidden();
  await expect(menu).toBeVisible();
});

test('typing after a link or a colour does not extend it', async ({ page }) => {
  await openEditor(page);
  const toolbar = page.getByRole('toolbar', { name: 'Formatting' });
  await page.keyboard.type('linkword');
  await selectBack(page, 'linkword'.length);
  await toolbar.getByRole('button', { name: 'Link' }).click();
  await page.getByLabel('Link address').fill('https://example.org/');
  await page.getByLabel('Link address').press('Enter');
  await expect(page.locator('.editor-content a')).toHaveText('linkword');
  // Back in the text at the link's end (the panel handed focus back), typing goes on as plain text.
  await page.keyboard.press('End');
  await page.keyboard.type(' red');
  await expect(page.locator('.editor-content p').first()).toHaveText('linkword red');
  await expect(page.locator('.editor-content a')).toHaveText('linkword');

  await page.keyboard.press('Enter');
  await page.keyboard.type('tinted');
  await selectBack(page, 'tinted'.length);
  await toolbar.getByRole('button', { name: 'Text colour' }).click();
  await page.getByLabel('Custom colour').fill('#b91c1c');
  await page.getByRole('button', { name: 'Apply colour' }).click();
  const coloured = page.locator('.editor-content span[style^="color"]');
  await expect(coloured).toHaveText('tinted');
  await page.keyboard.press('End');
  await page.keyboard.type(' plain');
  await expect(page.locator('.editor-content p').nth(1)).toHaveText('tinted plain');
  await expect(coloured).toHaveText('tinted');
});
