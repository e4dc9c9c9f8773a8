import { expect, test } from '@playwright/test';
import { banner, logInAsAdmin } from './admin-support.ts';
import fs from 'node:fs';
import { url } from './site-support.ts';

/** /admin/comments-manage: every comment with its blog's title; an admin can delete one (docs/product.md#comment-moderation). */
test('lists a new comment with its blog title, deletes it, and the article page follows', async ({ page }) => {
  const blogs = (await (await page.request.get(url('/api/blogs?limit=1'))).json()) as Array<{ id: number; title: string }>;
  const blog = blogs[0]!;
  const text = `Is there a worked answer for question 3? ${Date.now().toString(36)}`;
  const posted = await page.request.post(url(`/api/blogs/${blog.id}/comment`), {
    data: { comment: text, username: 'Priya', contact: 'n/a' },
    headers: { Origin: url('') },
  });
  expect(posted.status()).toBe(201);

  await logInAsAdmin(page);
  await page.goto(url('/admin/comments-manage'));
  // A clean comment is published at once: it is under Approved (the screen opens on Pending).
  await page.getByRole('tab', { name: 'Approved' }).click();
  const row = page.getByRole('row').filter({ hasText: text });
  await expect(row).toBeVisible();
  await expect(row.getByRole('link', { name: blog.title })).toHaveAttribute('href', `/blog/${blog.id}`);
  await expect(row.getByRole('cell', { name: 'Priya', exact: true })).toBeVisible();
  await expect(page.getByRole('columnheader', { name: 'Blog' })).toBeVisible();

  await page.goto(url(`/blog/${blog.id}`));
  await expect(page.getByText(text)).toBeVisible();

  await page.goto(url('/admin/comments-manage'));
  await page.getByRole('tab', { name: 'Approved' }).click();
  let confirmText = '';
  page.once('dialog', (dialog) => {
    confirmText = dialog.message();
    void dialog.accept();
  });
  await page.getByRole('row').filter({ hasText: text }).getByRole('button', { name: 'Delete comment by Priya' }).click();
  await expect(banner(page)).toContainText('Comment deleted successfully');
  await expect(banner(page)).toContainText(/Live in \d+(\.\d)? ms/);
  expect(confirmText).toBe('Are you sure you want to delete this comment?');
  await expect(page.getByRole('row').filter({ hasText: text })).toHaveCount(0);

  await page.goto(url(`/blog/${blog.id}`));
  await expect(page.getByRole('heading', { level: 1, name: blog.title })).toBeVisible();
  await expect(page.getByText(text)).toHaveCount(0);
});

/** Moderation (docs/product.md#comment-moderation): a comment a spam rule held waits under Pending until approved. */
test('a held comment appears under Pending; approving it shows it on the article and updates the menu count', async ({
  page,
}) => {
  const blogs = (await (await page.request.get(url('/api/blogs?limit=2'))).json()) as Array<{ id: number; title: string }>;
  const blog = blogs[1]!;
  const text = `Free answers at http://a.test http://b.test http://c.test ${Date.now().toString(36)}`;
  const posted = await page.request.post(url(`/api/blogs/${blog.id}/comment`), {
    data: { comment: text, username: 'Linkful', contact: 'n/a' },
    headers: { Origin: url('') },
  });
  expect(posted.status()).toBe(202);

  await logInAsAdmin(page);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(url('/admin/comments-manage'));
  const menuLink = page.getByRole('navigation', { name: 'Admin Panel' }).getByRole('link', { name: 'Comments', exact: true });
  await expect(menuLink).toHaveText(/^Comments \(\d+\)$/);
  const before = Number((await menuLink.textContent())!.match(/\d+/)![0]);

  const tabs = page.getByRole('tablist', { name: 'Comments by status' });
  await expect(tabs.getByRole('tab', { name: /^Pending/ })).toHaveAttribute('aria-selected', 'true');
  const row = page.getByRole('row').filter({ hasText: text });
  await expect(row).toBeVisible();
  await expect(row.getByRole('cell', { name: 'Too many links' })).toBeVisible();
  fs.mkdirSync('/tmp/shots', { recursive: true });
  await page.screenshot({ path: '/tmp/shots/moderation-pending.png', fullPage: true });

  // The tablist works from the keyboard: arrows move and select, Home goes back.
  await tabs.getByRole('tab', { name: /^Pending/ }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(tabs.getByRole('tab', { name: 'Approved' })).toBeFocused();
  await expect(tabs.getByRole('tab', { name: 'Approved' })).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Home');
  await expect(tabs.getByRole('tab', { name: /^Pending/ })).toHaveAttribute('aria-selected', 'true');

  await page.getByRole('row').filter({ hasText: text }).getByRole('button', { name: 'Approve comment by Linkful' }).click();
  await expect(banner(page)).toContainText('1 comment approved');
  await expect(page.getByRole('row').filter({ hasText: text })).toHaveCount(0);
  await expect(menuLink).toHaveText(before - 1 > 0 ? `Comments (${before - 1})` : 'Comments');

  await page.goto(url(`/blog/${blog.id}`));
  await expect(page.locator('section.comments').getByText(text)).toBeVisible();
});

test('bulk: select all held comments and mark them as spam, then delete them after a confirmation', async ({ page }) => {
  const blogs = (await (await page.request.get(url('/api/blogs?limit=1'))).json()) as Array<{ id: number }>;
  const stamp = Date.now().toString(36);
  const texts = [`Bulk spam one ${stamp}`, `Bulk spam two ${stamp}`];
  for (const text of texts) {
    const posted = await page.request.post(url(`/api/blogs/${blogs[0]!.id}/comment`), {
      data: { comment: text, username: 'Bot', contact: 'n/a', subject: 'filled by a bot' },
      headers: { Origin: url('') },
    });
    expect(posted.status()).toBe(202);
  }
  await logInAsAdmin(page);
  await page.goto(url('/admin/comments-manage'));
  for (const text of texts) await expect(page.getByRole('row').filter({ hasText: text })).toBeVisible();
  for (const text of texts)
    await page.getByRole('row').filter({ hasText: text }).getByRole('checkbox', { name: 'Select comment by Bot' }).check();
  await expect(page.getByText('2 selected')).toBeVisible();
  await page.getByRole('button', { name: 'Mark selected as spam' }).click();
  await expect(banner(page)).toContainText('2 comments marked as spam');

  await page.getByRole('tab', { name: 'Spam' }).click();
  for (const text of texts) await expect(page.getByRole('row').filter({ hasText: text })).toBeVisible();
  await page.getByRole('checkbox', { name: 'Select all comments on this page' }).check();
  let question = '';
  page.once('dialog', (dialog) => {
    question = dialog.message();
    void dialog.accept();
  });
  await page.getByRole('button', { name: 'Delete selected' }).click();
  await expect(banner(page)).toContainText(/comments? deleted/);
  expect(question).toMatch(/^Are you sure you want to delete (this comment|these \d+ comments)\?$/);
  for (const text of texts) await expect(page.getByRole('row').filter({ hasText: text })).toHaveCount(0);
});

test('the blocklist editor saves words, and a comment with one is held', async ({ page }) => {
  await logInAsAdmin(page);
  await page.goto(url('/admin/comments-manage'));
  const words = page.getByRole('textbox', { name: 'Blocked words and phrases' });
  await expect(words).toBeEnabled();
  const word = `blockedword${Date.now().toString(36)}`;
  await words.fill(`${word}\n\n  Second PHRASE  `);
  await page.getByRole('button', { name: 'Save blocked words' }).click();
  await expect(banner(page)).toContainText('Blocked words saved');
  await expect(words).toHaveValue(`second phrase\n${word}`.split('\n').sort().join('\n'));

  const blogs = (await (await page.request.get(url('/api/blogs?limit=1'))).json()) as Array<{ id: number }>;
  const held = await page.request.post(url(`/api/blogs/${blogs[0]!.id}/comment`), {
    data: { comment: `This has ${word.toUpperCase()} inside`, username: 'Reader', contact: 'n/a' },
    headers: { Origin: url('') },
  });
  expect(held.status()).toBe(202);

  await words.fill('');
  await page.getByRole('button', { name: 'Save blocked words' }).click();
  await expect(banner(page)).toContainText('Blocked words saved');
});

test('the chosen tab is in the address: a link opens it and a reload keeps it', async ({ page }) => {
  await logInAsAdmin(page);
  await page.goto(url('/admin/comments-manage?status=spam'));
  await expect(page.getByRole('tab', { name: /Spam/ })).toHaveAttribute('aria-selected', 'true');
  await page.getByRole('tab', { name: 'Approved' }).click();
  await expect(page).toHaveURL(/\?status=approved$/);
  await page.reload();
  await expect(page.getByRole('tab', { name: 'Approved' })).toHaveAttribute('aria-selected', 'true');
  await page.getByRole('tab', { name: /Pending/ }).click();
  await expect(page).toHaveURL(/comments-manage$/);
});
