import { expect, type APIRequestContext, type Page } from '@playwright/test';

/** Helpers shared by every browser test: the server's address, JSON from its API, island hydration. */

export function origin(): string {
  const value = process.env.E2E_ORIGIN;
  if (!value) throw new Error('E2E_ORIGIN is not set: run through playwright.config.ts (global setup starts the server).');
  return value;
}

export function url(p: string): string {
  return origin() + p;
}

/** GETs a path of the public API, expects 200 and returns its JSON. */
export async function getJson<T>(request: APIRequestContext, path: string): Promise<T> {
  const response = await request.get(path);
  expect(response.status(), path).toBe(200);
  return (await response.json()) as T;
}

/** Waits until Astro has hydrated the named island (it drops the `ssr` attribute then). */
export async function waitForIsland(page: Page, component: string): Promise<void> {
  await page.waitForFunction((name) => {
    const islands = [...document.querySelectorAll(`astro-island[component-url*="/${name}."]`)];
    return islands.length > 0 && islands.every((island) => !island.hasAttribute('ssr'));
  }, component);
}

/**
 * Waits until the header's script has run (the nav has no island any more): it marks the sign-in
 * area with data-auth once it paints, after the search forms got their blank-text guard.
 */
export async function waitForNavScript(page: Page): Promise<void> {
  await page.locator('.nav-auth[data-auth]').first().waitFor({ state: 'attached' });
}
