import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server.ts';
import { bearer, loginAsAdmin, loginAsNewUser } from '../support/auth.ts';
import { blogBodyFrom, buildBlogBody, type Json } from '../support/builders.ts';
import { call, sendJson } from './http-support.ts';
import { until } from '../support/wait.ts';

/**
 * The admin's preview of any article, and revisions: listed, read, restored (a restore is a
 * revision), pruned; the same for the About and Contact pages.
 */

let server: TestServer;
let admin: Record<string, string>;
let reader: Record<string, string>;
let categoryId: number;
let adminName: string;

beforeAll(async () => {
  server = await startServer({ env: { SEED_DEMO: 'false', REVISIONS_KEEP: '4', RATE_LIMIT_REGISTER_IP: '100' } });
  const session = await loginAsAdmin(server);
  admin = bearer(session);
  adminName = session.username;
  reader = bearer(await loginAsNewUser(server));
  const category = await sendJson(server, 'POST', '/api/categories', { name: 'Drafting', sequence: 0 }, admin);
  categoryId = (category.body as { id: number }).id;
});

afterAll(() => server?.stop());

async function create(overrides: Json): Promise<Json> {
  const answer = await sendJson(server, 'POST', '/api/blogs', buildBlogBody(categoryId, overrides), admin);
  expect(answer.status, answer.text).toBe(201);
  return answer.body as Json;
}

describe('preview', () => {
  it('shows a draft to an admin as readers will see it, with a banner, noindex, never cached or stored', async () => {
    const draft = await create({ title: 'Preview me', content: '<p>Unseen words.</p>', status: 'draft' });
    const response = await fetch(server.url(`/admin/preview/${String(draft.id)}`), { headers: admin });
    const html = await response.text();
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('private, no-store');
    expect(response.headers.get('x-robots-tag')).toContain('noindex');
    expect(html).toContain('<meta name="robots" content="noindex"');
    expect(html).toMatch(/<strong>Preview<\/strong>: this is how readers will see this article\. It is a draft\./);
    expect(html).toContain('<h1 dir="auto">Preview me</h1>');
    expect(html).toContain('<p>Unseen words.</p>');
    // Asking again renders it again: nothing kept it.
    expect(response.headers.get('etag')).toBeNull();
    // The readers' address is still a 404.
    expect((await fetch(server.url(`/blog/${String(draft.id)}`))).status).toBe(404);
  });

  it('is for admins only', async () => {
    const blog = await create({ status: 'draft' });
    const anonymous = await fetch(server.url(`/admin/preview/${String(blog.id)}`), { redirect: 'manual' });
    expect(anonymous.status).toBe(302);
    const asReader = await fetch(server.url(`/admin/preview/${String(blog.id)}`), { headers: reader, redirect: 'manual' });
    expect(asReader.status).toBe(302);
    expect((await fetch(server.url('/admin/preview/999999'), { headers: admin })).status).toBe(404);
  });
});

describe('revisions', () => {
  it('keeps one per save with every field, who and when; restores one as a new revision', async () => {
    const blog = await create({ title: 'First title', content: '<p>First text.</p>' });
    const second = await sendJson(
      server,
      'PUT',
      `/api/blogs/${String(blog.id)}`,
      blogBodyFrom(blog, { title: 'Second title', content: '<p>Second text.</p>' }),
      admin,
    );
    expect(second.status).toBe(200);

    const listed = await call(server, `/api/blogs/${String(blog.id)}/revisions`, { headers: admin });
    expect(listed.status).toBe(200);
    const revisions = listed.body as Json[];
    expect(revisions.map((r) => [r.title, r.action, r.username])).toEqual([
      ['Second title', 'update', adminName],
      ['First title', 'create', adminName],
    ]);
    expect(Date.parse(revisions[0]!.created_at as string)).not.toBeNaN();

    const first = await call(server, `/api/blogs/${String(blog.id)}/revisions/${String(revisions[1]!.id)}`, { headers: admin });
    expect(first.body).toMatchObject({
      title: 'First title',
      content: '<p>First text.</p>',
      category_id: categoryId,
      status: 'published',
    });

    const restored = await call(server, `/api/blogs/${String(blog.id)}/revisions/${String(revisions[1]!.id)}/restore`, {
      method: 'POST',
      headers: admin,
    });
    expect(restored.status, restored.text).toBe(200);
    expect(restored.body).toMatchObject({ title: 'First title', content: '<p>First text.</p>', status: 'published' });
    expect(typeof (restored.body as Json).live_ms).toBe('number');
    // Live on the site at once.
    expect(await (await fetch(server.url(`/blog/${String(blog.id)}`))).text()).toContain('<h1 dir="auto">First title</h1>');

    const after = (await call(server, `/api/blogs/${String(blog.id)}/revisions`, { headers: admin })).body as Json[];
    expect(after.map((r) => [r.title, r.action])).toEqual([
      ['First title', 'restore'],
      ['Second title', 'update'],
      ['First title', 'create'],
    ]);
  });

  it('restoring keeps the article where it is: a draft stays a draft', async () => {
    const blog = await create({ title: 'Was public', status: 'published' });
    const [createdRevision] = (await call(server, `/api/blogs/${String(blog.id)}/revisions`, { headers: admin })).body as Json[];
    await sendJson(
      server,
      'PUT',
      `/api/blogs/${String(blog.id)}`,
      blogBodyFrom(blog, { title: 'Now a draft', status: 'draft' }),
      admin,
    );
    const restored = await call(server, `/api/blogs/${String(blog.id)}/revisions/${String(createdRevision!.id)}/restore`, {
      method: 'POST',
      headers: admin,
    });
    expect(restored.body).toMatchObject({ title: 'Was public', status: 'draft' });
    expect((await fetch(server.url(`/blog/${String(blog.id)}`))).status).toBe(404);
  });

  it('keeps REVISIONS_KEEP revisions, newest first', async () => {
    const blog = await create({ title: 'Edit 0' });
    for (let n = 1; n <= 6; n++) {
      await sendJson(server, 'PUT', `/api/blogs/${String(blog.id)}`, blogBodyFrom(blog, { title: `Edit ${n}` }), admin);
    }
    const revisions = (await call(server, `/api/blogs/${String(blog.id)}/revisions`, { headers: admin })).body as Json[];
    expect(revisions.map((r) => r.title)).toEqual(['Edit 6', 'Edit 5', 'Edit 4', 'Edit 3']);
  });

  it('a run of autosaves is one revision', async () => {
    const blog = await create({ title: 'Autosaved 0', status: 'draft' });
    for (let n = 1; n <= 3; n++) {
      const body = blogBodyFrom(blog, { title: `Autosaved ${n}`, status: 'draft' });
      expect((await sendJson(server, 'PUT', `/api/blogs/${String(blog.id)}?autosave=1`, body, admin)).status).toBe(200);
    }
    const revisions = (await call(server, `/api/blogs/${String(blog.id)}/revisions`, { headers: admin })).body as Json[];
    expect(revisions.map((r) => [r.title, r.action])).toEqual([
      ['Autosaved 3', 'autosave'],
      ['Autosaved 0', 'create'],
    ]);
  });

  it('is for admins only, and answers 404 for unknown articles and revisions', async () => {
    const blog = await create({});
    expect((await call(server, `/api/blogs/${String(blog.id)}/revisions`)).status).toBe(401);
    expect((await call(server, `/api/blogs/${String(blog.id)}/revisions`, { headers: reader })).status).toBe(403);
    const restore = await call(server, `/api/blogs/${String(blog.id)}/revisions/1/restore`, { method: 'POST', headers: reader });
    expect(restore.status).toBe(403);
    expect((await call(server, '/api/blogs/999999/revisions', { headers: admin })).status).toBe(404);
    const missing = await call(server, `/api/blogs/${String(blog.id)}/revisions/999999/restore`, {
      method: 'POST',
      headers: admin,
    });
    expect(missing.status).toBe(404);
    expect((missing.body as Json).error).toBe('not_found');
  });
});

describe('About and Contact revisions', () => {
  const about = (suffix = '') => `/api/admin/pages/about/revisions${suffix}`;

  it('keeps one per save, shows each, and restores one: sanitized, a new revision, /about fresh when it answers', async () => {
    const put = (content: string) => sendJson(server, 'PUT', '/api/admin/pages/about', { content, content_source: '' }, admin);
    expect((await put('<p>We are the first team.</p>')).status).toBe(200);
    expect((await put('<p>We are the second team.</p>')).status).toBe(200);

    const listed = await call(server, about(), { headers: admin });
    expect(listed.status).toBe(200);
    const revisions = listed.body as Json[];
    // The built-in text the first save replaced is kept too.
    expect(revisions.map((r) => [r.slug, r.action, r.username])).toEqual([
      ['about', 'update', adminName],
      ['about', 'update', adminName],
      ['about', 'builtin', adminName],
    ]);
    expect(Object.keys(revisions[0]!)).not.toContain('content');
    const first = await call(server, about(`/${String(revisions[1]!.id)}`), { headers: admin });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ slug: 'about', content: '<p>We are the first team.</p>', action: 'update' });
    expect(await (await fetch(server.url('/about'))).text()).toContain('We are the second team.');

    const restored = await call(server, about(`/${String(revisions[1]!.id)}/restore`), { method: 'POST', headers: admin });
    expect(restored.status, restored.text).toBe(200);
    expect(restored.body).toMatchObject({
      slug: 'about',
      content: '<p>We are the first team.</p>',
      message: 'About Us page restored from the revision.',
    });
    expect(typeof (restored.body as Json).live_ms).toBe('number');
    // Fresh on the site when the restore answers: the stored page, not a stale one.
    const page = await fetch(server.url('/about'));
    expect(page.headers.get('x-page-store')).not.toBe('STALE');
    const html = await page.text();
    expect(html).toContain('<p>We are the first team.</p>');
    expect(html).not.toContain('We are the second team.');

    const after = (await call(server, about(), { headers: admin })).body as Json[];
    expect(after.map((r) => r.action)).toEqual(['restore', 'update', 'update', 'builtin']);
  });

  it('is for admins only, with 404 for unknown pages and revisions and 400 for bad ids', async () => {
    const saved = await sendJson(server, 'PUT', '/api/admin/pages/contact', { content: '<p>Write to us.</p>' }, admin);
    expect(saved.status, saved.text).toBe(200);
    const [contactRevision] = (await call(server, '/api/admin/pages/contact/revisions', { headers: admin })).body as Json[];
    const one = about(`/${String(contactRevision!.id)}`);

    expect((await call(server, about())).status).toBe(401);
    expect((await call(server, about(), { headers: reader })).status).toBe(403);
    expect((await call(server, one, { headers: reader })).status).toBe(403);
    const asReader = await call(server, `${one}/restore`, { method: 'POST', headers: reader });
    expect(asReader.status).toBe(403);

    // Contact's revision is not one of About's.
    for (const [path, method] of [
      [one, 'GET'],
      [`${one}/restore`, 'POST'],
      [about('/999999'), 'GET'],
      [about('/999999/restore'), 'POST'],
    ] as const) {
      const answer = await call(server, path, { method, headers: admin });
      expect(answer.status, path).toBe(404);
      expect(answer.body).toEqual({ error: 'not_found', message: 'That revision was not found.' });
    }
    const team = await call(server, '/api/admin/pages/team/revisions', { headers: admin });
    expect(team.status).toBe(404);
    expect((team.body as Json).error).toBe('not_found');
    for (const bad of ['abc', '0', '-1', '1.5']) {
      const answer = await call(server, about(`/${bad}`), { headers: admin });
      expect(answer.status, bad).toBe(400);
      expect(answer.body).toEqual({ error: 'invalid_input', message: 'The revision id must be a positive whole number.' });
    }
    // Nothing changed for Contact.
    expect(await (await fetch(server.url('/contact'))).text()).toContain('<p>Write to us.</p>');
  });
});

describe('the dashboard', () => {
  it('counts views per day where views are counted, and shows drafts, scheduled posts and latest comments', async () => {
    const blog = await create({ title: 'Much read' });
    await create({ title: 'Later on', status: 'scheduled', publish_at: new Date(Date.now() + 3600_000).toISOString() });
    const comment = await sendJson(server, 'POST', `/api/blogs/${String(blog.id)}/comment`, {
      username: 'Dana',
      comment: 'Very clear, thanks.',
    });
    expect(comment.status).toBe(201);
    expect((await call(server, `/api/blogs/${String(blog.id)}/click`, { method: 'PUT' })).status).toBeLessThan(300);

    const dashboard = async () => {
      const response = await fetch(server.url('/admin/dashboard'), { headers: admin });
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('private, no-store');
      return response.text();
    };
    // Views are written in batches (about once a second): wait for the count to reach the table.
    const today = new Date().toISOString().slice(0, 10);
    const countedToday = new RegExp(`datetime="${today}"[^<]*</time>\\s*</td>\\s*<td>1</td>`);
    const html = await until(dashboard, (page) => countedToday.test(page), "today's view in the dashboard table");
    expect(html.match(/<time datetime="\d{4}-\d{2}-\d{2}"/g)).toHaveLength(30);
    expect(html).toMatch(/<a href="\/blog\/\d+">Much read<\/a> <span class="muted">\(1 view\)<\/span>/);
    expect(html).toMatch(/<strong>\d+<\/strong> drafts/);
    expect(html).toMatch(/<strong>[1-9]\d*<\/strong> scheduled/);
    expect(html).toContain('Very clear, thanks.');
    // The menu leads with it.
    expect(html.indexOf('href="/admin/dashboard"')).toBeLessThan(html.indexOf('href="/admin/blogs-manage"'));
    const asReader = await fetch(server.url('/admin/dashboard'), { headers: reader, redirect: 'manual' });
    expect(asReader.status).toBe(302);
  });
});
