import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server.ts';
import { bearer, loginAsAdmin } from '../support/auth.ts';
import { blogBodyFrom, buildBlogBody, buildCategory, type Json } from '../support/builders.ts';
import { call, sendJson } from './http-support.ts';

/**
 * Readers are offered only categories that hold an article they can see: one holding only drafts
 * is left out of the nav, the menu and the footer on every page, appears with its first published
 * article when that save answers, and goes again with its last one. The admin API lists it always.
 */

let server: TestServer;
let admin: Record<string, string>;

beforeAll(async () => {
  server = await startServer();
  admin = bearer(await loginAsAdmin(server));
});

afterAll(async () => {
  await server?.stop();
});

/** Whether the public page links to the category anywhere (nav, second row, mobile menu, footer). */
async function offers(path: string, categoryId: number): Promise<boolean> {
  const response = await fetch(server.url(path));
  expect(response.status, path).toBe(200);
  return (await response.text()).includes(`href="/blogs?category=${categoryId}"`);
}

describe('a category with only drafts', () => {
  it('is offered to readers from its first published article until its last one goes', async () => {
    const created = await sendJson(server, 'POST', '/api/categories', buildCategory({ sequence: 0 }), admin);
    expect(created.status, created.text).toBe(201);
    const categoryId = (created.body as Json).id as number;

    const saved = await sendJson(server, 'POST', '/api/blogs', buildBlogBody(categoryId, { status: 'draft' }), admin);
    expect(saved.status, saved.text).toBe(201);
    const draft = saved.body as Json;
    for (const path of ['/', '/about', '/contact', '/blogs']) expect(await offers(path, categoryId), path).toBe(false);
    const listed = await call(server, '/api/categories', { headers: admin });
    expect((listed.body as Json[]).some((c) => c.id === categoryId)).toBe(true);

    const published = await sendJson(
      server,
      'PUT',
      `/api/blogs/${draft.id}`,
      blogBodyFrom(draft, { status: 'published' }),
      admin,
    );
    expect(published.status, published.text).toBe(200);
    // The main pages are refreshed before the save answers.
    for (const path of ['/', '/about', '/blogs']) expect(await offers(path, categoryId), path).toBe(true);

    const unpublished = await sendJson(
      server,
      'PUT',
      `/api/blogs/${draft.id}`,
      blogBodyFrom(published.body as Json, { status: 'draft' }),
      admin,
    );
    expect(unpublished.status, unpublished.text).toBe(200);
    for (const path of ['/', '/about', '/blogs']) expect(await offers(path, categoryId), path).toBe(false);
  });
});
