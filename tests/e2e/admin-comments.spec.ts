import { expect, test } from '@playwright/test';
import { banner, logInAsAdmin } from './admin-support.ts';
import { url } from './site-support.ts';

/** /admin/comments-manage: every comment with its blog's title; an admin can delete one (beyond SPEC.md). */
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
  const row = page.getByRole('row').filter({ hasText: text });
  await expect(row).toBeVisible();
  await expect(row.getByRole('link', { name: blog.title })).toHaveAttribute('href', `/blog/${blog.id}`);
  await expect(row.getByRole('cell', { name: 'Priya', exact: true })).toBeVisible();
  await expect(page.getByRole('columnheader', { name: 'Blog' })).toBeVisible();

  await page.goto(url(`/blog/${blog.id}`));
  await expect(page.getByText(text)).toBeVisible();

  await page.goto(url('/admin/comments-manage'));
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
