import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server.ts';
import { loginAsAdmin, loginAsNewUser, type Session } from '../support/auth.ts';
import { buildBlogBody, buildCategory, buildCommentBody, uniqueName } from '../support/builders.ts';

/**
 * A reader's library over HTTP against the real built server: saving and removing articles, the
 * limit, recent reads with their position, their own comments with status, sync of a device's
 * saves, and that every call is the signed-in reader's own (401 signed out, nothing of another
 * account). LIBRARY_LIMITS.saved is 100 (src/shared/validation/library.ts).
 */

let server: TestServer;
let admin: Session;
let categoryId: number;

beforeAll(async () => {
  server = await startServer({ env: { SEED_DEMO: 'false' } });
  admin = await loginAsAdmin(server);
  categoryId = (await adminCall('POST', '/api/categories', buildCategory())).id as number;
});

afterAll(async () => {
  await server?.stop();
});

async function adminCall(method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(server.url(path), {
    method,
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${admin.token}` },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

const newArticle = async (overrides: Record<string, unknown> = {}) =>
  (await adminCall('POST', '/api/blogs', buildBlogBody(categoryId, overrides))).id as number;

async function call(session: Session | null, method: string, path: string, body?: unknown) {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (session) headers.Authorization = `Bearer ${session.token}`;
  const response = await fetch(server.url(path), {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {}, headers: response.headers };
}

type Library = {
  saved: Array<{ id: number; title: string }>;
  recent: Array<{ id: number; position: number }>;
  comments: Array<Record<string, unknown>>;
};

async function library(session: Session): Promise<Library> {
  const answer = await call(session, 'GET', '/api/library');
  expect(answer.status).toBe(200);
  return answer.body as unknown as Library;
}

describe('saved articles', () => {
  it('saves, lists newest first, saves again without a second row, and removes', async () => {
    const reader = await loginAsNewUser(server);
    const first = await newArticle({ pdf_link: '/uploads/pdfs/notes.pdf' });
    const second = await newArticle();
    const saved = await call(reader, 'PUT', `/api/library/saved/${first}`);
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ id: first, pdf_link: '/uploads/pdfs/notes.pdf' });
    expect((await call(reader, 'PUT', `/api/library/saved/${second}`)).status).toBe(200);
    expect((await call(reader, 'PUT', `/api/library/saved/${first}`)).status).toBe(200);
    expect((await library(reader)).saved.map((entry) => entry.id)).toEqual([second, first]);

    expect((await call(reader, 'DELETE', `/api/library/saved/${second}`)).status).toBe(204);
    // Removing what is not saved is no error: a repeated tap.
    expect((await call(reader, 'DELETE', `/api/library/saved/${second}`)).status).toBe(204);
    expect((await library(reader)).saved.map((entry) => entry.id)).toEqual([first]);
  });

  it('refuses an unknown, a draft and a malformed article id with a clear error', async () => {
    const reader = await loginAsNewUser(server);
    const draft = await newArticle({ status: 'draft' });
    for (const id of [987654, draft]) {
      const answer = await call(reader, 'PUT', `/api/library/saved/${id}`);
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({ error: 'not_found', message: 'That article was not found.' });
    }
    const malformed = await call(reader, 'PUT', '/api/library/saved/abc');
    expect(malformed.status).toBe(400);
    expect(malformed.body.message).toBe('The article id must be a positive whole number.');
  });

  it('answers 401 signed out, and a cookie write from another site is refused', async () => {
    const id = await newArticle();
    for (const [method, path] of [
      ['GET', '/api/library'],
      ['PUT', `/api/library/saved/${id}`],
      ['DELETE', `/api/library/saved/${id}`],
      ['PUT', `/api/library/progress/${id}`],
    ] as const) {
      const answer = await call(
        null,
        method,
        path,
        method === 'PUT' && path.includes('progress') ? { position: 0.5 } : undefined,
      );
      expect(answer.status, `${method} ${path}`).toBe(401);
      expect(answer.body.error).toBe('not_logged_in');
    }
    const reader = await loginAsNewUser(server);
    const crossSite = await fetch(server.url(`/api/library/saved/${id}`), {
      method: 'PUT',
      headers: { Cookie: reader.cookie, Origin: 'https://elsewhere.example' },
    });
    expect(crossSite.status).toBe(403);
  });

  it('never shows one reader another reader’s library', async () => {
    const alice = await loginAsNewUser(server);
    const bob = await loginAsNewUser(server);
    const id = await newArticle();
    await call(alice, 'PUT', `/api/library/saved/${id}`);
    await call(alice, 'PUT', `/api/library/progress/${id}`, { position: 0.3 });
    expect(await library(bob)).toEqual({ saved: [], recent: [], comments: [] });
  });

  it('is answered no-store: no shared cache keeps a reader’s library', async () => {
    const reader = await loginAsNewUser(server);
    const answer = await call(reader, 'GET', '/api/library');
    expect(answer.headers.get('cache-control')).toMatch(/no-store/);
  });
});

describe('a full library', () => {
  it('refuses the 101st article with library_full and keeps the 100', async () => {
    const reader = await loginAsNewUser(server);
    const ids: number[] = [];
    for (let i = 0; i < 101; i += 1) ids.push(await newArticle({ title: uniqueName(`Full library ${i}`) }));
    const synced = await call(reader, 'POST', '/api/library/saved', { ids: ids.slice(0, 100) });
    expect(synced.status).toBe(200);
    const refused = await call(reader, 'PUT', `/api/library/saved/${ids[100]}`);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({
      error: 'library_full',
      message: 'Your library is full (100 articles). Remove an article before saving another.',
    });
    expect((await library(reader)).saved).toHaveLength(100);
  }, 120_000);
});

describe('sync of a device’s saves after login', () => {
  it('merges the ids, skips the ones no reader can open and names them', async () => {
    const reader = await loginAsNewUser(server);
    const kept = await newArticle();
    const already = await newArticle();
    const draft = await newArticle({ status: 'draft' });
    await call(reader, 'PUT', `/api/library/saved/${already}`);
    const answer = await call(reader, 'POST', '/api/library/saved', { ids: [kept, already, draft, 987654, kept] });
    expect(answer.status).toBe(200);
    expect(answer.body.skipped).toEqual([draft, 987654]);
    expect(((answer.body.saved as Array<{ id: number }>) ?? []).map((entry) => entry.id).sort()).toEqual([already, kept].sort());
  });

  it('refuses a list that is not ids, or longer than a library', async () => {
    const reader = await loginAsNewUser(server);
    for (const ids of ['1,2', [1, 'x'], [0], [1.5]]) {
      const answer = await call(reader, 'POST', '/api/library/saved', { ids });
      expect(answer.status, JSON.stringify(ids)).toBe(400);
      expect(answer.body.message).toBe('ids must be a list of article ids (positive whole numbers).');
    }
    const tooMany = await call(reader, 'POST', '/api/library/saved', { ids: Array.from({ length: 101 }, (_, i) => i + 1) });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.message).toBe('A library holds at most 100 articles; this list has more.');
  });
});

describe('recently read', () => {
  it('keeps where the reader stopped, latest read first', async () => {
    const reader = await loginAsNewUser(server);
    const first = await newArticle();
    const second = await newArticle();
    expect((await call(reader, 'PUT', `/api/library/progress/${first}`, { position: 0.25 })).status).toBe(204);
    expect((await call(reader, 'PUT', `/api/library/progress/${second}`, { position: 1 })).status).toBe(204);
    expect((await call(reader, 'PUT', `/api/library/progress/${first}`, { position: 0.6 })).status).toBe(204);
    const { recent } = await library(reader);
    expect(recent.map((read) => [read.id, read.position])).toEqual([
      [first, 0.6],
      [second, 1],
    ]);
  });

  it('refuses a position outside 0 to 1 and an unknown article', async () => {
    const reader = await loginAsNewUser(server);
    const id = await newArticle();
    for (const position of [-0.1, 1.5, '0.5', null]) {
      const answer = await call(reader, 'PUT', `/api/library/progress/${id}`, { position });
      expect(answer.status, String(position)).toBe(400);
      expect(answer.body.message).toBe('position must be a number from 0 to 1 (how far into the article the reader is).');
    }
    expect((await call(reader, 'PUT', '/api/library/progress/987654', { position: 0.5 })).status).toBe(404);
  });
});

describe('my comments', () => {
  it('lists the reader’s own comments with their status, and no one else’s', async () => {
    const reader = await loginAsNewUser(server);
    const id = await newArticle();
    const word = uniqueName('heldword')
      .toLowerCase()
      .replace(/[^a-z]/g, '');
    await adminCall('PUT', '/api/admin/comment-blocklist', { words: [word] });
    try {
      const posted = await call(
        reader,
        'POST',
        `/api/blogs/${id}/comment`,
        buildCommentBody({ comment: 'Clear and useful notes' }),
      );
      expect(posted.status).toBe(201);
      const held = await call(
        reader,
        'POST',
        `/api/blogs/${id}/comment`,
        buildCommentBody({ comment: `This has ${word} in it` }),
      );
      expect(held.status).toBe(202);
      // Signed out: not anyone's.
      expect((await call(null, 'POST', `/api/blogs/${id}/comment`, buildCommentBody({ comment: 'Anonymous note' }))).status).toBe(
        201,
      );
    } finally {
      await adminCall('PUT', '/api/admin/comment-blocklist', { words: [] });
    }
    const { comments } = await library(reader);
    expect(comments.map((c) => [c.comment, c.status, c.blog_id])).toEqual([
      [`This has ${word} in it`, 'pending', id],
      ['Clear and useful notes', 'approved', id],
    ]);
  });
});

describe('the pages', () => {
  it('/library and /offline are the same for everyone: nothing personal, never stored as shared pages', async () => {
    const reader = await loginAsNewUser(server);
    for (const path of ['/library', '/offline']) {
      const signedIn = await fetch(server.url(path), { headers: { Cookie: reader.cookie } });
      const html = await signedIn.text();
      expect(signedIn.status).toBe(200);
      expect(signedIn.headers.get('cache-control')).toBe('no-cache');
      expect(html).not.toContain(reader.username);
    }
  });

  it('an article and its cards carry a hidden Save button, the same for every reader', async () => {
    const title = uniqueName('Savable');
    const id = await newArticle({ title });
    const reader = await loginAsNewUser(server);
    await call(reader, 'PUT', `/api/library/saved/${id}`);
    for (const path of [`/blog/${id}`, `/blogs?category=${categoryId}`]) {
      const html = await (await fetch(server.url(path), { headers: { Cookie: reader.cookie } })).text();
      const button = new RegExp(`<button[^>]*data-save-article="${id}"[^>]*>`).exec(html)?.[0] ?? '';
      expect(button, path).toContain('aria-pressed="false"');
      expect(button, path).toContain('hidden');
    }
  });

  it('serves the service worker unstored and revalidated on every visit, one script with nothing to import', async () => {
    const response = await fetch(server.url('/sw.js'));
    const text = await response.text();
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(response.headers.get('cache-control')).toBe('no-cache');
    // Its own policy: the pages' default-src 'none' would stop it fetching anything.
    expect(response.headers.get('content-security-policy')).toMatch(/^default-src 'self';/);
    // Workbox bundled in at build time, with its development logging left out.
    expect(text).toContain('workbox');
    expect(text).not.toMatch(/\bimportScripts\(|^import\s|process\.env/m);
  });
});
