import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { expect, type Page } from '@playwright/test';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../support/server.ts';

/** Helpers shared by the admin browser tests (tests/e2e/admin-*.spec.ts). */

export function origin(): string {
  const value = process.env.E2E_ORIGIN;
  if (!value) throw new Error('E2E_ORIGIN is not set: run through playwright.config.ts (global setup starts the server).');
  return value;
}

export function url(p: string): string {
  return origin() + p;
}

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

/** A PNG drawn with sharp, a small real PDF, a text file and an oversized "PNG", in a temp folder. */
export async function makeTestFiles(): Promise<TestFiles> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'admin-e2e-'));
  const png = path.join(dir, 'featured-diagram.png');
  await sharp({ create: { width: 800, height: 420, channels: 3, background: { r: 40, g: 90, b: 200 } } })
    .png()
    .toFile(png);
  const secondPng = path.join(dir, 'cell-sketch.png');
  await sharp({ create: { width: 320, height: 200, channels: 3, background: { r: 200, g: 60, b: 60 } } })
    .png()
    .toFile(secondPng);
  const pdf = path.join(dir, 'revision-notes.pdf');
  fs.writeFileSync(pdf, minimalPdf('Revision notes'));
  const text = path.join(dir, 'notes.txt');
  fs.writeFileSync(text, 'plain text, not an image or a PDF\n');
  const bigPng = path.join(dir, 'huge-photo.png');
  // Over 5MB: the forms refuse it before any upload.
  fs.writeFileSync(bigPng, Buffer.alloc(5 * 1024 * 1024 + 10, 1));
  return { dir, png, secondPng, pdf, text, bigPng };
}

export function removeTestFiles(files: TestFiles | undefined): void {
  if (files) fs.rmSync(files.dir, { recursive: true, force: true });
}

function minimalPdf(title: string): Buffer {
  const content = `BT /F1 18 Tf 72 760 Td (${title}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
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
