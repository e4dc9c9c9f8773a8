import fs from 'node:fs';
import { AxeBuilder } from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { logInAsAdmin } from './admin-support.ts';
import { url } from './site-support.ts';
import { STUDY_SITE_WXR } from '../support/import-fixture.ts';

/**
 * The Import screen checks a WordPress export (the study-site export written for the tests) and shows its report;
 * Settings offers the whole site and its Markdown export to download. Writes nothing to the shared
 * server (the import is a check only). Screenshots at 390 and 1280 px in both themes go to
 * /tmp/shots/ for a look by eye.
 */

const VIEWS = [
  { width: 390, theme: 'light' },
  { width: 1280, theme: 'dark' },
  { width: 390, theme: 'dark' },
  { width: 1280, theme: 'light' },
] as const;

test('the Import screen checks a WordPress export and shows the report', async ({ page }) => {
  await logInAsAdmin(page);
  await page.goto(url('/admin/import'));
  await expect(page.getByRole('link', { name: 'Import' })).toHaveAttribute('aria-current', 'page');
  const choose = page.getByLabel('Export file');
  await expect(choose).toBeEnabled();
  await choose.setInputFiles(STUDY_SITE_WXR);
  await expect(page.getByLabel(/Check only/)).toBeChecked();
  await page.getByRole('button', { name: 'Check the file' }).click();
  const report = page.locator('.import-report');
  await expect(report).toContainText('Checked only: nothing was written.', { timeout: 120_000 });
  // The shared server never imports this file, so all nine posts are new to it.
  await expect(report).toContainText('Articles: 9 would be imported, 0 would be updated, 0 already here, 2 skipped, 0 failed');
  await expect(report).toContainText('Comments: 6 would be imported');
  await expect(report.getByText('Imported (9)', { exact: true })).toBeVisible();
  await expect(report.getByText('Skipped (2)', { exact: true })).toBeVisible();
  const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21aa', 'wcag22aa', 'best-practice']).analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  fs.mkdirSync('/tmp/shots', { recursive: true });
  for (const view of VIEWS) {
    await page.setViewportSize({ width: view.width, height: 900 });
    await page.emulateMedia({ colorScheme: view.theme });
    await page.screenshot({ path: `/tmp/shots/import-${view.width}-${view.theme}.png`, fullPage: true });
  }
});

test('a refused file is told in words, with nothing written', async ({ page }) => {
  await logInAsAdmin(page);
  await page.goto(url('/admin/import'));
  const choose = page.getByLabel('Export file');
  await expect(choose).toBeEnabled();
  await choose.setInputFiles({
    name: 'bomb.xml',
    mimeType: 'application/xml',
    buffer: Buffer.from('<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "a">]><rss/>'),
  });
  await page.getByRole('button', { name: 'Check the file' }).click();
  await expect(page.getByRole('alert')).toContainText('DOCTYPE');
});

test('Settings offers the whole site and its Markdown export to download', async ({ page }) => {
  await logInAsAdmin(page);
  await page.goto(url('/admin/settings'));
  const site = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Download the site (.tar.gz)' }).click();
  const download = await site;
  expect(download.suggestedFilename()).toMatch(/^site-export-\d{4}-\d{2}-\d{2}\.tar\.gz$/);
  const file = await download.path();
  expect(fs.readFileSync(file).subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
  fs.mkdirSync('/tmp/shots', { recursive: true });
  const panel = page.locator('section', { has: page.getByRole('heading', { name: 'Export' }) });
  for (const view of VIEWS) {
    await page.setViewportSize({ width: view.width, height: 900 });
    await page.emulateMedia({ colorScheme: view.theme });
    await panel.screenshot({ path: `/tmp/shots/export-${view.width}-${view.theme}.png` });
  }
});
