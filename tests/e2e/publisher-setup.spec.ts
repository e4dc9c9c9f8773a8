import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { startServer, type TestServer } from '../support/server.ts';
import { makePng } from '../support/files.ts';
import { waitForEditor } from './admin-support.ts';

/**
 * A new publisher's first hour, in Chromium: `npm start` on a new machine (no ADMIN_EMAIL) prints
 * a setup link; they open it, create their account and name the site, brand it in Settings (a
 * too-light colour is refused and the suggested shade taken), write the About page (and bring an
 * earlier version back from its revisions), and look at their home page on a laptop and a phone (screenshots in test-results/). Its own server: the
 * shared one has an admin already.
 */

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];
let server: TestServer;
let setupLink = '';
let files: { dir: string; logo: string; icon: string };

async function violationsOf(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags(TAGS).analyze();
  return result.violations.map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  server = await startServer({ env: { ADMIN_EMAIL: '', ADMIN_PASSWORD: '' } });
  setupLink = /First run: open (\S+) to create/.exec(server.output())![1]!;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'publisher-e2e-'));
  files = { dir, logo: path.join(dir, 'maple-logo.png'), icon: path.join(dir, 'maple-icon.png') };
  fs.writeFileSync(files.logo, await makePng(360, 120));
  fs.writeFileSync(files.icon, await makePng(256, 256));
});

test.afterAll(async () => {
  await server?.stop();
  if (files) fs.rmSync(files.dir, { recursive: true, force: true });
});

test('the setup page has no accessibility violations', async ({ page }) => {
  await page.goto(setupLink);
  await expect(page.getByRole('button', { name: 'Create my account' })).toBeEnabled();
  expect(await violationsOf(page)).toEqual([]);
});

test('a new publisher sets up the site, brands it and writes the About page, restoring a revision', async ({ page }) => {
  // Set up: the owner's account and the site's title.
  await page.goto(setupLink);
  const create = page.getByRole('button', { name: 'Create my account' });
  await expect(create).toBeEnabled();
  await page.getByLabel('Your name').fill('maria');
  await page.getByLabel('Email').fill('maria@example.org');
  await page.getByLabel('Password').fill('a long owner passphrase');
  await page.getByLabel('Site title').fill('Maple Notes');
  await create.click();
  await expect(page.getByText('Your site is ready. You are signed in as its owner.')).toBeVisible();
  await page.waitForURL(`${server.origin}/admin/settings`);

  // Settings: loaded, keyboard reachable, with the title from the setup.
  const title = page.getByLabel('Site title');
  await expect(title).toHaveValue('Maple Notes');
  expect(await violationsOf(page)).toEqual([]);
  await page.getByLabel('Tagline').fill('Revision that sticks');
  await page.getByLabel('Logo').setInputFiles(files.logo);
  await expect(page.getByRole('img', { name: 'Current logo' })).toBeVisible();
  await page.getByLabel('Site icon').setInputFiles(files.icon);
  await expect(page.getByRole('img', { name: 'Current site icon' })).toBeVisible();
  await page.getByLabel('Instagram link').first().fill('');
  await page.getByLabel('WhatsApp link').fill('https://wa.me/4400000001');

  // A colour too light for white text is refused, with a shade that passes offered.
  const colour = page.getByLabel('Brand colour', { exact: true });
  await colour.fill('#7dd3fc');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(colour).toBeFocused();
  await expect(colour).toHaveAttribute('aria-invalid', 'true');
  await expect(page.locator('#settings-brand-color-error')).toContainText('WCAG AA needs 4.5:1');
  const useShade = page.getByRole('button', { name: /^Use #[0-9a-f]{6} instead$/ });
  const shade = /#[0-9a-f]{6}/.exec((await useShade.textContent()) ?? '')![0];
  await useShade.click();
  await expect(colour).toHaveValue(shade);

  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByTestId('message-banner')).toContainText('Settings saved.');
  await expect(page.locator('.settings-form .refresh-status')).toContainText(/pages? refreshed in/, { timeout: 300_000 });
  expect(await violationsOf(page)).toEqual([]);

  // About: the side menu, the article editor.
  await page.getByRole('navigation', { name: 'Admin Panel' }).getByRole('link', { name: 'About & Contact' }).click();
  await page.waitForURL(`${server.origin}/admin/pages`);
  await waitForEditor(page);
  expect(await violationsOf(page)).toEqual([]);
  await page.locator('.editor-content').click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.press('Delete');
  await page.keyboard.type('Maple Notes is written by two chemistry teachers in Leeds.');
  await page.getByRole('button', { name: 'Save About Us page' }).click();
  await expect(page.getByTestId('message-banner')).toContainText('About Us page saved.');
  await page.goto(`${server.origin}/about`);
  await expect(page.locator('main')).toContainText('Maple Notes is written by two chemistry teachers in Leeds.');
  await expect(page.locator('main')).not.toContainText('small team of teachers');

  // A second version, then the first one brought back from the revisions below the editor.
  await page.goto(`${server.origin}/admin/pages`);
  await waitForEditor(page);
  await page.locator('.editor-content').click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.press('Delete');
  await page.keyboard.type('Maple Notes is written by three biology teachers in York.');
  await page.getByRole('button', { name: 'Save About Us page' }).click();
  await expect(page.getByTestId('message-banner')).toContainText('About Us page saved.');
  const revisions = page.getByRole('region', { name: 'Revisions' }).getByRole('listitem');
  await expect(revisions).toHaveCount(3);
  await expect(revisions.nth(2)).toContainText('Built-in text, replaced by maria');
  const firstSave = revisions.nth(1);
  await expect(firstSave).toContainText('Saved by maria');
  await firstSave.getByRole('button', { name: /^Show changes/ }).click();
  // Struck through: only in the revision; underlined: only in the text now.
  await expect(firstSave.locator('del').filter({ hasText: 'chemistry' })).toHaveCount(1);
  await expect(firstSave.locator('ins').filter({ hasText: 'biology' })).toHaveCount(1);
  await page.screenshot({ path: test.info().outputPath('about-revision-view.png'), fullPage: true });
  expect(await violationsOf(page)).toEqual([]);
  page.once('dialog', (dialog) => void dialog.accept());
  await firstSave.getByRole('button', { name: /^Restore/ }).click();
  await expect(page.getByTestId('message-banner')).toContainText('About Us page restored from the revision.');
  await expect(page.locator('.editor-content')).toContainText('two chemistry teachers in Leeds');
  await expect(revisions).toHaveCount(4);
  await expect(revisions.first()).toContainText('Restored by maria');
  await page.goto(`${server.origin}/about`);
  await expect(page.locator('main')).toContainText('Maple Notes is written by two chemistry teachers in Leeds.');
  await expect(page.locator('main')).not.toContainText('York');

  // The branded home page, on a laptop and on a phone.
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 1280 ? 900 : 844 });
    await page.goto(`${server.origin}/`);
    await expect(page).toHaveTitle('Maple Notes');
    const brand = page.locator('a.brand');
    await expect(brand.locator('.brand-name')).toHaveText('Maple Notes');
    await expect(brand.locator('img.brand-logo')).toBeVisible();
    await expect(page.locator('.brand-tagline')).toBeVisible({ visible: width === 1280 });
    const float = page.getByRole('complementary', { name: 'Social links' }).getByRole('link');
    await expect(float).toHaveText(['WhatsApp (opens in a new tab)', 'YouTube (opens in a new tab)']);
    // The social toggle takes the brand colour.
    const background = await page.locator('.social-toggle').evaluate((el) => getComputedStyle(el).backgroundColor);
    const [r, g, b] = [1, 3, 5].map((i) => Number.parseInt(shade.slice(i, i + 2), 16));
    expect(background).toBe(`rgb(${r}, ${g}, ${b})`);
    await page.screenshot({ path: `test-results/branded-home-${width}.png`, fullPage: false });
  }
});

test('the publisher removes the demo content in one step, after a confirmation', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${server.origin}/login`);
  await expect(page.getByRole('button', { name: 'Log In' })).toBeEnabled();
  await page.getByLabel('Email').fill('maria@example.org');
  await page.getByLabel('Password').fill('a long owner passphrase');
  await page.getByRole('button', { name: 'Log In' }).click();
  await page.waitForURL(`${server.origin}/admin`);
  await page.goto(`${server.origin}/admin/settings`);
  const panel = page.getByRole('region', { name: 'Demo content' });
  await expect(panel).toContainText(/still holds the demo content it started with: \d+ articles/);
  // Dismissing the confirmation changes nothing.
  page.once('dialog', (dialog) => void dialog.dismiss());
  await panel.getByRole('button', { name: 'Remove demo content' }).click();
  await expect(panel.getByRole('button', { name: 'Remove demo content' })).toBeEnabled();
  page.once('dialog', (dialog) => {
    expect(dialog.message()).toContain('Remove all demo content?');
    void dialog.accept();
  });
  await panel.getByRole('button', { name: 'Remove demo content' }).click();
  await expect(page.getByTestId('message-banner')).toContainText(/Demo content removed: \d+ articles/);
  await expect(panel).toContainText('There is no demo content on the site.');
  await page.goto(`${server.origin}/`);
  await expect(page.locator('main')).toContainText('No articles found');
  await expect(page).toHaveTitle('Maple Notes');
});
