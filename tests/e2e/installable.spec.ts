import { expect, test } from '@playwright/test';
import { url, waitForNavScript } from './site-support.ts';

/**
 * The site is an installable web app in Chromium: Chromium's own check (the DevTools protocol's
 * Page.getInstallabilityErrors) finds nothing missing once the service worker controls the page.
 */
test('Chromium finds the site installable', async ({ page }) => {
  await page.goto(url('/'));
  await waitForNavScript(page);
  await page.waitForFunction(async () => {
    await navigator.serviceWorker.ready;
    return navigator.serviceWorker.controller !== null || (await navigator.serviceWorker.getRegistration()) !== undefined;
  });
  const cdp = await page.context().newCDPSession(page);
  const manifest = (await cdp.send('Page.getAppManifest')) as { errors: Array<{ message: string }>; url: string };
  expect(manifest.url).toBe(url('/manifest.webmanifest'));
  expect(manifest.errors).toEqual([]);
  const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as {
    installabilityErrors: Array<{ errorId: string }>;
  };
  // Test browsers run in a private profile, where Chromium installs nothing: that one is about the browser.
  expect(installabilityErrors.map((error) => error.errorId).filter((id) => id !== 'in-incognito')).toEqual([]);
});
