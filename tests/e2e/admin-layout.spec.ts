import { expect, test } from '@playwright/test';
import { logInAsAdminBeforeEach, waitForEditor } from './admin-support.ts';
import { url } from './site-support.ts';

/** The admin screens' layout where the first week showed rough edges. */
logInAsAdminBeforeEach();

test('the blog table keeps each date on one line, and on a phone says what each value is', async ({ page }) => {
  await page.setViewportSize({ width: 1024, height: 800 });
  await page.goto(url('/admin/blogs-manage'));
  const dateCell = page.locator('table.admin-table tbody tr').first().locator('td[data-label="Date"]');
  await expect(dateCell).toBeVisible();
  const lineHeight = await dateCell.locator('time').evaluate((el) => parseFloat(getComputedStyle(el).lineHeight));
  const height = (await dateCell.locator('time').boundingBox())!.height;
  expect(height).toBeLessThan(lineHeight * 1.5);
  // Edit, View on site and Delete are in view without scrolling the table sideways, beside the
  // side menu at 1024 and 1280 px and wider.
  const firstRow = page.locator('table.admin-table tbody tr').first();
  const wrap = page.locator('.table-wrap').first();
  for (const width of [1024, 1280, 1440]) {
    await page.setViewportSize({ width, height: 800 });
    const shown = (await wrap.boundingBox())!;
    expect(
      await wrap.evaluate((el) => el.scrollWidth - el.clientWidth),
      `the table scrolls sideways at ${width} px`,
    ).toBeLessThanOrEqual(1);
    for (const control of [
      firstRow.getByRole('link', { name: /^Edit / }),
      firstRow.getByRole('link', { name: /^View / }),
      firstRow.getByRole('button', { name: /^Delete / }),
    ]) {
      const box = (await control.boundingBox())!;
      expect(box.x, `${width} px`).toBeGreaterThanOrEqual(shown.x - 1);
      expect(box.x + box.width, `${width} px`).toBeLessThanOrEqual(shown.x + shown.width + 1);
      // Its label sits in the middle of the button, stacked or not.
      const offCentre = await control.evaluate((el) => {
        const range = document.createRange();
        range.selectNodeContents(el);
        const text = range.getBoundingClientRect();
        const button = el.getBoundingClientRect();
        return Math.abs(text.top + text.height / 2 - (button.top + button.height / 2));
      });
      expect(offCentre, `${width} px`).toBeLessThan(3);
    }
  }

  await page.setViewportSize({ width: 390, height: 844 });
  const row = page.locator('table.admin-table tbody tr').first();
  for (const label of ['Status', 'Date', 'Category', 'Views', 'Author']) {
    const content = await row.locator(`td[data-label="${label}"]`).evaluate((el) => getComputedStyle(el, '::before').content);
    expect(content, label).toContain(label);
  }
});

test('the Publish at field is as wide as the other fields', async ({ page }) => {
  await page.goto(url('/admin/blogs-create'));
  await waitForEditor(page);
  await page.getByLabel('Status').selectOption('scheduled');
  const publishAt = page.getByLabel('Publish at');
  await expect(publishAt).toBeVisible();
  const title = (await page.getByLabel('Title').boundingBox())!;
  const field = (await publishAt.boundingBox())!;
  expect(Math.abs(field.width - title.width)).toBeLessThan(2);
});
