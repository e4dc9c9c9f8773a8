import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { makePdf, makePng } from '../support/files.ts';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../support/server.ts';
import { url } from './site-support.ts';

/** Helpers shared by the admin browser tests (tests/e2e/admin-*.spec.ts). */

/** Logs in through the login screen, as an admin would, and lands on /admin. */
export async function logInThroughForm(page: Page): Promise<void> {
  await page.goto(url('/login'));
  const submit = page.getByRole('button', { name: 'Log In' });
  // The island renders the button disabled until it is hydrated; typing earlier would be lost.
  await expect(submit).toBeEnabled();
  await page.getByLabel('Email').fill(ADMIN_EMAIL);
  await page.getByLabel('Password').fill(ADMIN_PASSWORD);
  await submit.click();
  await page.waitForURL(url('/admin'));
}

/** Signs the page's browser context in through the API (the session cookie lands in the context). */
export async function logInAsAdmin(page: Page): Promise<void> {
  const response = await page.request.post(url('/api/users/login'), { data: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD } });
  expect(response.status()).toBe(200);
}

export interface TestFiles {
  dir: string;
  png: string;
  secondPng: string;
  pdf: string;
  text: string;
  bigPng: string;
}

/** A PNG, a second smaller PNG, a small real PDF, a text file and an oversized "PNG", in a temp folder. */
async function makeTestFiles(): Promise<TestFiles> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'admin-e2e-'));
  const png = path.join(dir, 'featured-diagram.png');
  fs.writeFileSync(png, await makePng(800, 420));
  const secondPng = path.join(dir, 'cell-sketch.png');
  fs.writeFileSync(secondPng, await makePng(320, 200));
  const pdf = path.join(dir, 'revision-notes.pdf');
  fs.writeFileSync(pdf, makePdf('Revision notes'));
  const text = path.join(dir, 'notes.txt');
  fs.writeFileSync(text, 'plain text, not an image or a PDF\n');
  const bigPng = path.join(dir, 'huge-photo.png');
  // Over 5MB: the forms refuse it before any upload.
  fs.writeFileSync(bigPng, Buffer.alloc(5 * 1024 * 1024 + 10, 1));
  return { dir, png, secondPng, pdf, text, bigPng };
}

function removeTestFiles(files: TestFiles | undefined): void {
  if (files) fs.rmSync(files.dir, { recursive: true, force: true });
}

/**
 * The test files for a spec file: made before its first test, removed after its last. The object
 * is filled in place, so the spec can hold it from the start.
 */
export function prepareTestFiles(): TestFiles {
  const files = {} as TestFiles;
  test.beforeAll(async () => {
    Object.assign(files, await makeTestFiles());
  });
  test.afterAll(() => removeTestFiles(files.dir ? files : undefined));
  return files;
}

/** Signs every test of the spec file in as the admin (through the API) before it starts. */
export function logInAsAdminBeforeEach(): void {
  test.beforeEach(async ({ page }) => {
    await logInAsAdmin(page);
  });
}

/** Waits until the Milkdown editor is created and ready for typing. */
export async function waitForEditor(page: Page): Promise<void> {
  await expect(page.locator('.rich-editor[data-ready="true"] .editor-content')).toBeVisible();
}

/** The banner of the admin layout. */
export function banner(page: Page) {
  return page.getByTestId('message-banner');
}

/** Finds a blog's id through the blog table's search and its Edit link. */
export async function findBlogId(page: Page, title: string): Promise<number> {
  await page.goto(url('/admin/blogs-manage'));
  await page.getByLabel('Search blogs').fill(title);
  const edit = page.getByRole('link', { name: `Edit ${title}`, exact: true });
  await expect(edit).toBeVisible();
  const href = await edit.getAttribute('href');
  const match = /\/admin\/edit-blog\/(\d+)$/.exec(href ?? '');
  if (!match) throw new Error(`Unexpected edit link ${href}`);
  return Number(match[1]);
}
