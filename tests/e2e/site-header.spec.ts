import { expect, test, type Page } from '@playwright/test';
import { buildAccount } from '../support/builders.ts';
import { logInAsAdmin } from './admin-support.ts';
import { url, waitForNavScript } from './site-support.ts';

/**
 * The header at desktop widths: brand, links, search and the signed-in area stay on one row with
 * a 60-character site title and a 24-character username, for a reader and for an admin. The title
 * is set through the settings API and put back afterwards.
 */

const WIDTHS = [1024, 1280, 1440];
const LONG_TITLE = 'Notes for the Higher Secondary Certificate Science Students'.slice(0, 60);

/** The visible items of the header's first bar, each as its top and bottom edge. */
async function barRows(page: Page): Promise<{ tops: number[]; bottoms: number[]; overflow: number }> {
  return page.evaluate(() => {
    const bar = document.querySelector<HTMLElement>('.site-header .nav-bar')!;
    const items = [...bar.children].filter(
      (el) => (el as HTMLElement).offsetParent !== null && el.getBoundingClientRect().width > 0,
    );
    const boxes = items.map((el) => el.getBoundingClientRect());
    return {
      tops: boxes.map((box) => box.top),
      bottoms: boxes.map((box) => box.bottom),
      overflow: Math.max(bar.scrollWidth - bar.clientWidth, document.documentElement.scrollWidth - window.innerWidth),
    };
  });
}

async function expectOneRow(page: Page, who: string): Promise<void> {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 800 });
    const { tops, bottoms, overflow } = await barRows(page);
    // One row: every item starts above the point where every other item ends.
    expect(Math.max(...tops), `${who} at ${width} px: an item sits below another`).toBeLessThan(Math.min(...bottoms));
    expect(overflow, `${who} at ${width} px: the header overflows sideways`).toBeLessThanOrEqual(0);
  }
}

let savedTitle = '';

test.beforeAll(async ({ browser }) => {
  const page = await browser.newPage();
  await logInAsAdmin(page);
  const current = await page.request.get(url('/api/admin/settings'));
  savedTitle = ((await current.json()) as { settings: { site_title: string } }).settings.site_title;
  const saved = await page.request.put(url('/api/admin/settings'), {
    data: { site_title: LONG_TITLE },
    headers: { Origin: url('') },
  });
  expect(saved.status()).toBe(200);
  await page.close();
});

test.afterAll(async ({ browser }) => {
  const page = await browser.newPage();
  await logInAsAdmin(page);
  await page.request.put(url('/api/admin/settings'), { data: { site_title: savedTitle }, headers: { Origin: url('') } });
  await page.close();
});

test('a reader with a 24-character name sees My library and the header on one row from 1024 px', async ({ page }) => {
  const account = { ...buildAccount(), username: `reader_${'x'.repeat(17)}` };
  expect(account.username).toHaveLength(24);
  expect((await page.request.post(url('/api/users/register'), { data: account })).status()).toBe(201);
  const login = await page.request.post(url('/api/users/login'), { data: { email: account.email, password: account.password } });
  expect(login.status()).toBe(200);
  await page.goto(url('/blogs'));
  await waitForNavScript(page);
  await expect(page.locator('.nav-auth')).toContainText('Log Out');
  await expect(page.locator('.nav-auth').getByRole('link', { name: 'My library' })).toHaveAttribute('href', '/library');
  await expect(page.locator('.nav-auth').getByRole('link', { name: 'Dashboard' })).toHaveCount(0);
  await expect(page.locator('.brand-name')).toHaveText(LONG_TITLE);
  await expectOneRow(page, 'reader');
});

test('an admin sees Dashboard, the name and Log Out on the same row as the search box', async ({ page }) => {
  await logInAsAdmin(page);
  await page.goto(url('/'));
  await waitForNavScript(page);
  await expect(page.locator('.nav-auth').getByRole('link', { name: 'Dashboard' })).toBeVisible();
  await expectOneRow(page, 'admin');
});
