import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { getJson, waitForIsland } from './site-support.ts';

/**
 * The comment form says why a post did not go through (beyond docs/product.md#messages, where a failed
 * post is only logged): held for approval as a status (the form then clears, as after a post),
 * refusals and failures as an alert, with what the visitor typed kept in the form.
 */

async function openForm(page: Page, blogId: number) {
  await page.goto(`/blog/${blogId}`);
  const section = page.locator('section.comments');
  await section.scrollIntoViewIfNeeded();
  await waitForIsland(page, 'CommentsSection');
  return {
    section,
    text: section.getByRole('textbox', { name: 'Comment' }),
    name: section.getByRole('textbox', { name: 'Name' }),
    submit: section.getByRole('button', { name: 'Post Comment' }),
  };
}

test('a comment a spam rule holds says it awaits approval, leaves the form empty and stays off the list', async ({
  page,
  request,
}) => {
  const blog = (await getJson<Array<{ id: number }>>(request, '/api/blogs?limit=3'))[2]!;
  const form = await openForm(page, blog.id);
  const heading = await form.section.getByRole('heading', { level: 2 }).textContent();
  const text = `Read more at http://a.test http://b.test http://c.test ${Date.now()}`;
  await form.text.fill(text);
  await form.name.fill('Link Lover');
  const answer = page.waitForResponse(
    (r) => r.request().method() === 'POST' && r.url().endsWith(`/api/blogs/${blog.id}/comment`),
  );
  await form.submit.click();
  expect((await answer).status()).toBe(202);
  await expect(form.section.getByRole('status')).toHaveText(/awaiting approval/);
  await expect(form.section.getByRole('alert')).toHaveCount(0);
  await expect(form.text).toHaveValue('');
  await expect(form.name).toHaveValue('');
  await expect(form.section.getByRole('heading', { level: 2 })).toHaveText(heading!);
  await expect(form.section.locator('.comment-list').getByText(text)).toHaveCount(0);
  fs.mkdirSync('/tmp/shots', { recursive: true });
  await form.section.screenshot({ path: '/tmp/shots/comment-form-held.png' });
});

test('the form sends its timing token and leaves the hidden field empty', async ({ page, request }) => {
  const blog = (await getJson<Array<{ id: number }>>(request, '/api/blogs?limit=1'))[0]!;
  const form = await openForm(page, blog.id);
  // The hidden field is out of the accessibility tree: only the two visible text boxes are named.
  await expect(form.section.getByRole('textbox')).toHaveCount(2);
  await form.text.fill(`Token check ${Date.now()}`);
  await form.name.fill('Reader');
  const post = page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith(`/api/blogs/${blog.id}/comment`));
  await form.submit.click();
  const body = (await post).postDataJSON() as Record<string, unknown>;
  expect(body.form_token).toMatch(/^\d+\.[\w-]+$/);
  expect(body.subject).toBe('');
  await expect(form.section.getByRole('status')).toHaveText('Your comment was posted.');
});

test('a comment sent before the form token arrived waits for it (a post without one is held)', async ({ page, request }) => {
  const blog = (await getJson<Array<{ id: number }>>(request, '/api/blogs?limit=1'))[0]!;
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/comment-token', async (route) => {
    await released;
    await route.continue();
  });
  const form = await openForm(page, blog.id);
  await form.text.fill(`Posted at once ${Date.now()}`);
  await form.name.fill('Quick Reader');
  const post = page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith(`/api/blogs/${blog.id}/comment`));
  await form.submit.click();
  // The token answers only after the click: a form that posted without waiting has sent none.
  release();
  expect(((await post).postDataJSON() as Record<string, unknown>).form_token).toMatch(/^\d+\.[\w-]+$/);
  await expect(form.section.getByRole('status')).toHaveText('Your comment was posted.');
});

test('a form left open longer than its token lives asks for a new token before posting', async ({ page, request }) => {
  const blog = (await getJson<Array<{ id: number }>>(request, '/api/blogs?limit=1'))[0]!;
  const handedOut: string[] = [];
  await page.route('**/api/comment-token', async (route) => {
    const answer = await route.fetch();
    const body = (await answer.json()) as { token: string; max_seconds: number };
    handedOut.push(body.token);
    // The first token says it lives one second: by the time the reader posts, it is too old.
    await route.fulfill({ response: answer, json: handedOut.length === 1 ? { ...body, max_seconds: 1 } : body });
  });
  const form = await openForm(page, blog.id);
  await form.text.fill(`Written slowly ${Date.now()}`);
  await form.name.fill('Slow Reader');
  const post = page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith(`/api/blogs/${blog.id}/comment`));
  await form.submit.click();
  const sent = ((await post).postDataJSON() as Record<string, unknown>).form_token;
  expect(handedOut).toHaveLength(2);
  expect(sent).toBe(handedOut[1]);
  await expect(form.section.getByRole('status')).toHaveText('Your comment was posted.');
});

test('too many comments, a too-long comment and a server failure each say why, keeping the text', async ({ page, request }) => {
  const blog = (await getJson<Array<{ id: number }>>(request, '/api/blogs?limit=1'))[0]!;
  const form = await openForm(page, blog.id);
  const path = `**/api/blogs/${blog.id}/comment`;
  await form.text.fill('Kept after a refusal');
  await form.name.fill('Persistent');

  const cases: Array<{ status: number; body: unknown; says: string | RegExp }> = [
    {
      status: 429,
      body: { error: 'rate_limited', message: 'Too many comments from your address. Please try again in 10 minutes.' },
      says: 'Too many comments from your address. Please try again in 10 minutes.',
    },
    {
      status: 400,
      body: {
        error: 'invalid_input',
        message: 'Please check the comment form.',
        fields: { comment: 'Comment must be at most 5000 characters.' },
      },
      says: 'Comment must be at most 5000 characters.',
    },
    { status: 500, body: { error: 'internal', message: 'boom' }, says: /could not be posted\. Please try again/ },
  ];
  for (const { status, body, says } of cases) {
    await page.route(path, (route) => route.fulfill({ status, contentType: 'application/json', body: JSON.stringify(body) }));
    await form.submit.click();
    await expect(form.section.getByRole('alert')).toHaveText(says);
    await expect(form.text).toHaveValue('Kept after a refusal');
    await expect(form.name).toHaveValue('Persistent');
    await page.unroute(path);
  }
  await page.route(path, (route) => route.abort());
  await form.submit.click();
  await expect(form.section.getByRole('alert')).toHaveText(/could not be posted\. Please try again/);
  await page.unroute(path);
});
