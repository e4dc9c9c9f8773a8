import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../support/wait.ts';
import { startServer, type TestServer } from '../support/server.ts';
import { bearer, loginAsAdmin, loginAsNewUser } from '../support/auth.ts';
import { blogBodyFrom, buildBlogBody, type Json } from '../support/builders.ts';
import { call, sendJson } from './http-support.ts';

/**
 * Drafts and scheduled articles that are not yet due exist for admins only: every public surface
 * (article page, API one and lists, recent, top viewed, home, /blogs, the category, downloads,
 * search, sitemap, RSS) leaves them out, and publishing brings them onto each one.
 */

let server: TestServer;
let admin: Record<string, string>;
let reader: Record<string, string>;
let categoryId: number;
const FAR = new Date(Date.now() + 365 * 24 * 3600_000).toISOString();
let published: Json;
let draft: Json;
let scheduled: Json;

async function create(overrides: Json): Promise<Json> {
  const answer = await sendJson(server, 'POST', '/api/blogs', buildBlogBody(categoryId, overrides), admin);
  expect(answer.status, answer.text).toBe(201);
  return answer.body as Json;
}

const text = async (path: string, headers: Record<string, string> = {}) => {
  const response = await fetch(server.url(path), { headers });
  return { status: response.status, body: await response.text() };
};

/** Every public surface, as text, with the article links or ids it lists. */
async function publicSurfaces(): Promise<Record<string, string>> {
  const paths = [
    '/',
    '/blogs',
    `/blogs?category=${categoryId}`,
    '/download',
    '/sitemap.xml',
    '/rss.xml',
    '/api/blogs',
    `/api/blogs?category=${categoryId}`,
    '/api/blogs/recent',
    '/api/blogs/top-viewed',
    '/blogs?search=zeppelinium',
    '/api/blogs?search=zeppelinium',
  ];
  const surfaces: Record<string, string> = {};
  for (const path of paths) {
    const answer = await text(path);
    expect(answer.status, path).toBe(200);
    surfaces[path] = answer.body;
  }
  return surfaces;
}

function mentions(surface: string, blog: Json): boolean {
  return surface.includes(`/blog/${blog.id}"`) || surface.includes(`/blog/${blog.id}<`) || surface.includes(`"id":${blog.id},`);
}

beforeAll(async () => {
  server = await startServer({ env: { SEED_DEMO: 'false', RATE_LIMIT_REGISTER_IP: '100' } });
  admin = bearer(await loginAsAdmin(server));
  reader = bearer(await loginAsNewUser(server));
  const category = await sendJson(server, 'POST', '/api/categories', { name: 'Airships', sequence: 0 }, admin);
  categoryId = (category.body as { id: number }).id;
  const pdf = { pdf_link: 'https://files.example.org/notes.pdf' };
  published = await create({ title: 'Published zeppelinium notes', ...pdf });
  draft = await create({ title: 'Draft zeppelinium notes', status: 'draft', ...pdf });
  scheduled = await create({ title: 'Scheduled zeppelinium notes', status: 'scheduled', publish_at: FAR, ...pdf });
});

afterAll(() => server?.stop());

describe('the status field', () => {
  it('defaults to published and keeps what an admin chose', () => {
    expect(published).toMatchObject({ status: 'published', publish_at: null });
    expect(draft).toMatchObject({ status: 'draft', publish_at: null });
    expect(scheduled).toMatchObject({ status: 'scheduled', publish_at: FAR });
  });

  it('refuses an unknown status or a missing, malformed or past publish_at with a 400 naming the field', async () => {
    const cases: Array<[Json, string]> = [
      [{ status: 'live' }, 'status'],
      [{ status: 'scheduled' }, 'publish_at'],
      [{ status: 'scheduled', publish_at: 'next tuesday' }, 'publish_at'],
      [{ status: 'scheduled', publish_at: '2020-01-01T00:00:00Z' }, 'publish_at'],
    ];
    for (const [overrides, field] of cases) {
      const answer = await sendJson(server, 'POST', '/api/blogs', buildBlogBody(categoryId, overrides), admin);
      expect(answer.status, JSON.stringify(overrides)).toBe(400);
      const body = answer.body as { error: string; message: string; fields: Record<string, string> };
      expect(body.error).toBe('invalid_input');
      expect(Object.keys(body.fields)).toEqual([field]);
      expect(body.message).toBe(body.fields[field]);
    }
  });
});

describe('an unpublished article', () => {
  it('is a 404 for readers on its page and in the API, and there for admins with its status', async () => {
    for (const blog of [draft, scheduled]) {
      expect((await text(`/blog/${blog.id}`)).status).toBe(404);
      expect((await call(server, `/api/blogs/${blog.id}`)).status).toBe(404);
      expect((await call(server, `/api/blogs/${blog.id}`, { headers: reader })).status).toBe(404);
      const seen = await call(server, `/api/blogs/${blog.id}`, { headers: admin });
      expect(seen.status).toBe(200);
      expect((seen.body as Json).status).toBe(blog.status);
    }
  });

  it('is absent from every public list, feed and search, while the published one is there', async () => {
    const surfaces = await publicSurfaces();
    for (const [path, body] of Object.entries(surfaces)) {
      expect(mentions(body, published), `${path} lists the published article`).toBe(true);
      expect(mentions(body, draft), `${path} hides the draft`).toBe(false);
      expect(mentions(body, scheduled), `${path} hides the scheduled article`).toBe(false);
      expect(body).not.toContain('Draft zeppelinium');
      expect(body).not.toContain('Scheduled zeppelinium');
    }
  });

  it('takes no comment and counts no view', async () => {
    const comment = await sendJson(server, 'POST', `/api/blogs/${draft.id}/comment`, { username: 'Ann', comment: 'Hello there' });
    expect(comment.status).toBe(404);
    expect((await call(server, `/api/blogs/${draft.id}/click`, { method: 'PUT' })).status).toBe(404);
  });

  it('is in the admin list with its status, and the status filter picks it', async () => {
    const all = (await call(server, '/api/blogs', { headers: admin })).body as Json[];
    expect(all.map((b) => [b.id, b.status])).toEqual(
      expect.arrayContaining([
        [published.id, 'published'],
        [draft.id, 'draft'],
        [scheduled.id, 'scheduled'],
      ]),
    );
    const drafts = await call(server, '/api/blogs?status=draft', { headers: admin });
    expect((drafts.body as Json[]).map((b) => b.id)).toEqual([draft.id]);
    expect(drafts.headers.get('x-total-count')).toBe('1');
    expect((await call(server, '/api/blogs?status=gone', { headers: admin })).status).toBe(400);
    // The admin's search finds unpublished articles too (the public index does not hold them).
    const found = (await call(server, '/api/blogs?search=zeppelinium', { headers: admin })).body as Json[];
    expect(found.map((b) => b.id).sort()).toEqual([published.id, draft.id, scheduled.id].sort());
    // A reader asking for drafts still gets published articles only.
    const sneaky = (await call(server, '/api/blogs?status=draft', { headers: reader })).body as Json[];
    expect(sneaky.map((b) => b.id)).toEqual([published.id]);
  });
});

describe('publishing a draft', () => {
  it('brings it onto every public surface at once (stored pages included), dated now', async () => {
    await publicSurfaces(); // every page stored while the draft is hidden
    const answer = await sendJson(server, 'PUT', `/api/blogs/${draft.id}`, blogBodyFrom(draft, { status: 'published' }), admin);
    expect(answer.status, answer.text).toBe(200);
    expect(Date.parse((answer.body as Json).created_at as string)).toBeGreaterThan(Date.parse(draft.created_at as string));
    expect((await text(`/blog/${draft.id}`)).status).toBe(200);
    // Hot pages are fresh when the save answers; others (the sitemap, feeds) may be answered STALE
    // until the background refresh reaches them.
    const listed = (all: Record<string, string>): boolean =>
      Object.entries(all).every(
        ([path, body]) => path === '/blogs' || path === `/blogs?category=${categoryId}` || mentions(body, draft),
      );
    const surfaces = await until(
      publicSurfaces as () => Promise<Record<string, string>>,
      listed,
      'every surface to list the published article',
    );
    for (const [path, body] of Object.entries(surfaces)) {
      if (path === '/blogs' || path === `/blogs?category=${categoryId}`) continue; // one article per page: the newest
      expect(mentions(body, draft), `${path} lists the newly published article`).toBe(true);
      expect(mentions(body, scheduled), `${path} still hides the scheduled article`).toBe(false);
    }
    // Newest first: the published draft leads page 1 of /blogs and of its category.
    expect(mentions(surfaces['/blogs']!, draft)).toBe(true);
    expect(mentions(surfaces[`/blogs?category=${categoryId}`]!, draft)).toBe(true);
  });

  it('back to draft takes it off again', async () => {
    const current = (await call(server, `/api/blogs/${draft.id}`, { headers: admin })).body as Json;
    const answer = await sendJson(server, 'PUT', `/api/blogs/${draft.id}`, blogBodyFrom(current, { status: 'draft' }), admin);
    expect(answer.status, answer.text).toBe(200);
    expect((await text(`/blog/${draft.id}`)).status).toBe(404);
    // The lists it led are hot pages, and the API and search read the database: gone at once. The
    // sitemap and the feed are not hot: they may be answered STALE until the background refresh.
    const notHot = new Set(['/sitemap.xml', '/rss.xml']);
    for (const [path, body] of Object.entries(await publicSurfaces())) {
      if (!notHot.has(path)) expect(mentions(body, draft), path).toBe(false);
    }
    const unlisted = (all: Record<string, string>): boolean => Object.values(all).every((body) => !mentions(body, draft));
    await until(publicSurfaces as () => Promise<Record<string, string>>, unlisted, 'every surface to drop the article');
  });
});
