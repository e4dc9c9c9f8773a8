import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server.ts';
import { bearer, loginAsAdmin } from '../support/auth.ts';
import { blogBodyFrom, buildBlogBody, type Json } from '../support/builders.ts';
import { until } from '../support/wait.ts';
import { sendJson } from './http-support.ts';

/**
 * The Older and Newer links under an article, on the real server: they name the articles either
 * side in the lists' order, follow a new article and a renamed neighbour through the background
 * refresh, and never show an article that was taken down once that save has answered.
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

const html = async (path: string) => (await fetch(server.url(path))).text();
const newerLink = (page: string) => /<a class="pager-newer" rel="next" href="\/blog\/(\d+)">/.exec(page)?.[1];
const olderLink = (page: string) => /<a class="pager-older" rel="prev" href="\/blog\/(\d+)">/.exec(page)?.[1];

describe('Older and Newer under an article', () => {
  it('link the neighbours, follow a new article and a rename, and drop a taken-down one at once', async () => {
    const [newest, second] = (await (await fetch(server.url('/api/blogs?limit=2'))).json()) as Json[];
    const middle = await html(`/blog/${second!.id}`);
    expect(newerLink(middle)).toBe(String(newest!.id));
    expect(middle).toContain(newest!.title as string);
    expect(olderLink(middle)).toMatch(/^\d+$/);
    expect(newerLink(await html(`/blog/${newest!.id}`))).toBeUndefined();

    // A new article becomes the newest one's Newer link (refreshed in the background).
    const created = await sendJson(server, 'POST', '/api/blogs', buildBlogBody(newest!.category_id as number), admin);
    expect(created.status, created.text).toBe(201);
    const added = created.body as Json;
    await until(
      () => html(`/blog/${newest!.id}`),
      (page) => newerLink(page) === String(added.id),
      'the Newer link to the new article',
    );

    // Renaming it renames the link.
    const renamed = `Renamed neighbour ${Date.now().toString(36)}`;
    const edited = await sendJson(server, 'PUT', `/api/blogs/${added.id}`, blogBodyFrom(added, { title: renamed }), admin);
    expect(edited.status, edited.text).toBe(200);
    await until(
      () => html(`/blog/${newest!.id}`),
      (page) => page.includes(renamed),
      'the renamed Newer link',
    );

    // Taken down: gone from its neighbour's page as soon as the save answers.
    const unpublished = await sendJson(
      server,
      'PUT',
      `/api/blogs/${added.id}`,
      blogBodyFrom(edited.body as Json, { status: 'draft' }),
      admin,
    );
    expect(unpublished.status, unpublished.text).toBe(200);
    const after = await html(`/blog/${newest!.id}`);
    expect(after).not.toContain(renamed);
    expect(newerLink(after)).toBeUndefined();
  });
});
