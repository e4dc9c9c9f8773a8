import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server.ts';
import { bearer, login, loginAsAdmin, loginAsNewUser, registerUser, type Session } from '../support/auth.ts';
import { buildCategory } from '../support/builders.ts';

/**
 * The access matrix of issue 4: every /api route of docs/product.md#the-api with no token, a garbage
 * token, a tampered token, an expired token, a logged-out token, a reader's token and an admin's
 * token. Routes come from the design's table, not from the code, so a route that is missing or
 * unguarded fails here loudly. Then CSRF for cookie requests, and the /admin pages.
 */

type Body = { json: unknown } | { form: Record<string, string> } | null;

interface Route {
  method: string;
  path: string;
  body?: Body;
}

const MISSING = 999_999;

/** docs/product.md#the-api, admin rows (plus the admin comment delete the admin screens use). */
const ADMIN_ROUTES: Route[] = [
  { method: 'GET', path: '/api/blogs/comment' },
  { method: 'POST', path: '/api/blogs', body: { json: {} } },
  { method: 'PUT', path: `/api/blogs/${MISSING}`, body: { json: {} } },
  { method: 'DELETE', path: `/api/blogs/${MISSING}` },
  { method: 'POST', path: '/api/blogs/upload-image-cloudinary', body: { form: { note: 'no file' } } },
  { method: 'POST', path: '/api/blogs/upload-pdf-local', body: { form: { note: 'no file' } } },
  { method: 'POST', path: '/api/categories', body: { json: {} } },
  { method: 'PUT', path: `/api/categories/${MISSING}`, body: { json: { name: 'Matrix', sequence: 0 } } },
  { method: 'DELETE', path: `/api/categories/${MISSING}` },
  { method: 'POST', path: '/api/carousel', body: { form: { title: 'no image' } } },
  { method: 'DELETE', path: `/api/carousel/${MISSING}` },
  { method: 'DELETE', path: `/api/blogs/comment/${MISSING}` },
  // Comment moderation (beyond the original table, docs/product.md#comment-moderation): the tabs, the actions and the blocklist.
  { method: 'GET', path: '/api/blogs/comment?status=pending' },
  { method: 'POST', path: '/api/blogs/comment/moderate', body: { json: { ids: [MISSING], action: 'approve' } } },
  { method: 'GET', path: '/api/admin/comment-blocklist' },
  { method: 'PUT', path: '/api/admin/comment-blocklist', body: { json: {} } },
  // Settings, About/Contact (the admin's answers are a read and a 400: the site stays as it is).
  { method: 'GET', path: '/api/admin/settings' },
  { method: 'PUT', path: '/api/admin/settings', body: { json: { site_title: '' } } },
  { method: 'GET', path: '/api/admin/pages/about' },
  { method: 'PUT', path: '/api/admin/pages/about', body: { json: { content: '' } } },
  { method: 'GET', path: '/api/admin/pages/about/revisions' },
  { method: 'GET', path: `/api/admin/pages/about/revisions/${MISSING}` },
  { method: 'POST', path: `/api/admin/pages/about/revisions/${MISSING}/restore` },
];

/** docs/product.md#the-api, rows open to all, with the status each answers anyone. */
const PUBLIC_ROUTES: Array<Route & { expected: number }> = [
  { method: 'GET', path: '/api/carousel', expected: 200 },
  { method: 'GET', path: '/api/blogs/top-viewed', expected: 200 },
  { method: 'GET', path: '/api/blogs/recent', expected: 200 },
  { method: 'GET', path: '/api/blogs', expected: 200 },
  { method: 'GET', path: '/api/blogs?category=1&search=the', expected: 200 },
  { method: 'GET', path: '/api/blogs/1', expected: 200 },
  { method: 'PUT', path: '/api/blogs/1/click', expected: 204 },
  {
    method: 'POST',
    path: '/api/blogs/1/comment',
    body: { json: { comment: 'Matrix comment', username: 'Matrix', contact: 'x' } },
    expected: 201,
  },
  { method: 'GET', path: '/api/categories', expected: 200 },
  { method: 'GET', path: '/api/users/me', expected: 200 },
  { method: 'GET', path: '/api/comment-token', expected: 200 },
  {
    method: 'POST',
    path: '/api/users/login',
    body: { json: { email: 'nobody@example.test', password: 'wrong password' } },
    expected: 401,
  },
];

let server: TestServer;
let admin: Session;
let reader: Session;
const credentials: Record<string, Record<string, string>> = {};

function ageSession(token: string, byMs: number): void {
  const db = new Database(server.databasePath);
  try {
    db.prepare('update sessions set created_at = created_at - ?, last_verified_at = last_verified_at - ? where id = ?').run(
      byMs,
      byMs,
      token.split('.')[0],
    );
  } finally {
    db.close();
  }
}

function requestInit(route: Route, headers: Record<string, string>): RequestInit {
  const body = route.body ?? null;
  if (body && 'json' in body) {
    return { method: route.method, headers: { ...headers, 'Content-Type': 'application/json' }, body: JSON.stringify(body.json) };
  }
  if (body && 'form' in body) {
    const form = new FormData();
    for (const [k, v] of Object.entries(body.form)) form.append(k, v);
    return { method: route.method, headers, body: form };
  }
  return { method: route.method, headers };
}

async function send(
  route: Route,
  headers: Record<string, string>,
): Promise<{ status: number; body: unknown; location: string | null }> {
  const response = await fetch(server.url(route.path), { ...requestInit(route, headers), redirect: 'manual' });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON: kept as text for the failure message.
  }
  return { status: response.status, body, location: response.headers.get('location') };
}

beforeAll(async () => {
  server = await startServer({
    env: {
      RATE_LIMIT_REGISTER_IP: '1000',
      RATE_LIMIT_COMMENT_IP: '1000',
      RATE_LIMIT_LOGIN_IP: '1000',
      RATE_LIMIT_LOGIN_ACCOUNT: '1000',
    },
  });
  admin = await loginAsAdmin(server);
  reader = await loginAsNewUser(server);

  const tampered = await loginAsAdmin(server);
  const [id, secret] = tampered.token.split('.') as [string, string];
  const expired = await loginAsAdmin(server);
  ageSession(expired.token, 31 * 24 * 3600_000);
  const loggedOut = await loginAsAdmin(server);
  const logout = await fetch(server.url('/api/users/logout'), { method: 'POST', headers: bearer(loggedOut) });
  expect(logout.status).toBe(204);

  credentials['no token'] = {};
  credentials['garbage token'] = { Authorization: 'Bearer garbage-token' };
  credentials['tampered token'] = { Authorization: `Bearer ${id}.${secret.startsWith('A') ? 'B' : 'A'}${secret.slice(1)}` };
  credentials['expired token'] = bearer(expired);
  credentials['logged-out token'] = bearer(loggedOut);
  credentials['user token'] = bearer(reader);
  credentials['admin token'] = bearer(admin);
});

afterAll(async () => {
  await server?.stop();
});

const ANONYMOUS = ['no token', 'garbage token', 'tampered token', 'expired token', 'logged-out token'];

describe('admin /api routes', () => {
  for (const route of ADMIN_ROUTES) {
    describe(`${route.method} ${route.path}`, () => {
      for (const who of ANONYMOUS) {
        it(`${who}: 401 not_logged_in`, async () => {
          const answer = await send(route, credentials[who]!);
          expect(answer.status, JSON.stringify(answer.body)).toBe(401);
          expect(answer.body).toMatchObject({ error: 'not_logged_in', message: expect.any(String) });
        });
      }

      it('user token: 403 forbidden', async () => {
        const answer = await send(route, credentials['user token']!);
        expect(answer.status, JSON.stringify(answer.body)).toBe(403);
        expect(answer.body).toMatchObject({ error: 'forbidden', message: expect.any(String) });
      });

      it('admin token: let through to the route (its own answer, never 401/403/405/5xx)', async () => {
        const answer = await send(route, credentials['admin token']!);
        expect([401, 403, 405], JSON.stringify(answer.body)).not.toContain(answer.status);
        expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(500);
        expect(answer.status).toBeGreaterThanOrEqual(200);
        if (answer.status >= 400) expect(answer.body).toMatchObject({ error: expect.any(String), message: expect.any(String) });
      });
    });
  }

  it('the admin comment list really answers the admin', async () => {
    const answer = await send({ method: 'GET', path: '/api/blogs/comment' }, credentials['admin token']!);
    expect(answer.status).toBe(200);
    expect(Array.isArray(answer.body)).toBe(true);
  });
});

describe('public /api routes answer everyone alike', () => {
  for (const route of PUBLIC_ROUTES) {
    it(`${route.method} ${route.path}: ${route.expected} for every credential`, async () => {
      for (const [who, headers] of Object.entries(credentials)) {
        const answer = await send(route, headers);
        expect(answer.status, `${who}: ${JSON.stringify(answer.body)}`).toBe(route.expected);
      }
    });
  }

  it('POST /api/users/register: 201 for every credential, never an admin', async () => {
    let n = 0;
    for (const [who, headers] of Object.entries(credentials)) {
      n += 1;
      const account = {
        username: `matrix${Date.now().toString(36)}${n}`,
        email: `matrix${Date.now()}${n}@example.test`,
        password: 'matrix-password',
      };
      const answer = await send(
        { method: 'POST', path: '/api/users/register', body: { json: { ...account, is_admin: true } } },
        headers,
      );
      expect(answer.status, `${who}: ${JSON.stringify(answer.body)}`).toBe(201);
      expect((await login(server, account.email, account.password)).isAdmin).toBe(false);
    }
  });

  it('POST /api/users/logout: 204 for every credential', async () => {
    for (const [who, headers] of Object.entries(credentials)) {
      if (who === 'user token' || who === 'admin token') continue; // would end the sessions used above
      expect((await send({ method: 'POST', path: '/api/users/logout' }, headers)).status, who).toBe(204);
    }
    const throwaway = await loginAsNewUser(server);
    expect((await send({ method: 'POST', path: '/api/users/logout' }, bearer(throwaway))).status).toBe(204);
  });
});

describe('CSRF: cookie requests must come from this site', () => {
  const del = { method: 'DELETE', path: `/api/categories/${MISSING}` };

  it('refuses an admin cookie DELETE from a foreign Origin, or with no Origin at all', async () => {
    const variants: Array<Record<string, string>> = [
      { Origin: 'https://evil.example' },
      { Origin: 'null' },
      {},
      { Origin: server.origin, 'Sec-Fetch-Site': 'cross-site' },
    ];
    for (const extra of variants) {
      const answer = await send(del, { Cookie: admin.cookie, ...extra });
      expect(answer.status, JSON.stringify(extra)).toBe(403);
      expect(answer.body).toMatchObject({ error: 'csrf', message: expect.any(String) });
    }
  });

  it('lets the same DELETE through from our own origin or with Sec-Fetch-Site: same-origin', async () => {
    expect((await send(del, { Cookie: admin.cookie, Origin: server.origin })).status).toBe(404);
    expect((await send(del, { Cookie: admin.cookie, 'Sec-Fetch-Site': 'same-origin' })).status).toBe(404);
  });

  it('refuses a cross-site JSON or form POST riding on the cookie, and nothing is created', async () => {
    const name = `CSRF ${Date.now()}`;
    const json = await send(
      { method: 'POST', path: '/api/categories', body: { json: buildCategory({ name }) } },
      { Cookie: admin.cookie, Origin: 'https://evil.example' },
    );
    expect(json.status).toBe(403);
    const form = await send(
      { method: 'POST', path: '/api/categories', body: { form: { name, sequence: '0' } } },
      { Cookie: admin.cookie, Origin: 'https://evil.example' },
    );
    expect(form.status).toBe(403);
    const list = (await send({ method: 'GET', path: '/api/categories' }, {})).body as Array<{ name: string }>;
    expect(list.map((c) => c.name)).not.toContain(name);
    // The same request from our own page works.
    const ok = await send(
      { method: 'POST', path: '/api/categories', body: { json: buildCategory({ name }) } },
      { Cookie: admin.cookie, Origin: server.origin },
    );
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
  });

  it("refuses a reader's cookie on a public write from another site", async () => {
    const route = {
      method: 'POST',
      path: '/api/blogs/1/comment',
      body: { json: { comment: 'csrf', username: 'csrf', contact: 'x' } },
    };
    expect((await send(route, { Cookie: reader.cookie, Origin: 'https://evil.example' })).status).toBe(403);
    expect((await send(route, { Cookie: reader.cookie, Origin: server.origin })).status).toBe(201);
  });

  it('needs no Origin for Bearer requests, and the cookie then does not matter', async () => {
    expect((await send(del, bearer(admin))).status).toBe(404);
    expect((await send(del, { ...bearer(admin), Origin: 'https://evil.example' })).status).toBe(404);
    // A reader's Bearer beside an admin cookie is the reader.
    expect((await send(del, { ...bearer(reader), Cookie: admin.cookie })).status).toBe(403);
  });

  it('lets cookie GETs through from anywhere (they change nothing)', async () => {
    const answer = await send(
      { method: 'GET', path: '/api/blogs/comment' },
      { Cookie: admin.cookie, Origin: 'https://evil.example' },
    );
    expect(answer.status).toBe(200);
  });
});

describe('/admin pages are guarded by the server', () => {
  const pages = [
    '/admin',
    '/admin/',
    '/admin/blogs-manage',
    '/admin/blogs-create',
    '/admin/category',
    '/admin/carousel',
    '/admin/comments-manage',
    '/admin/edit-blog/1',
  ];

  it('send anonymous visitors, forged or ended sessions and readers to /login with a 302', async () => {
    const expiredCookie = credentials['expired token']!.Authorization!.replace('Bearer ', 'session=');
    const visitors: Record<string, Record<string, string>> = {
      anonymous: {},
      'garbage cookie': { Cookie: 'session=garbage' },
      'expired cookie': { Cookie: expiredCookie },
      'reader cookie': { Cookie: reader.cookie },
      'reader bearer': bearer(reader),
    };
    for (const path of [...pages, '/ADMIN', '/admin/no-such-screen']) {
      for (const [who, headers] of Object.entries(visitors)) {
        const answer = await send({ method: 'GET', path }, headers);
        expect(answer.status, `${who} ${path}`).toBe(302);
        expect(answer.location, `${who} ${path}`).toBe('/login');
        expect(String(answer.body), `${who} ${path}`).not.toContain('Admin Panel');
      }
    }
  });

  it('show the admin the page, never cached', async () => {
    for (const path of pages) {
      const response = await fetch(server.url(path), { headers: { Cookie: admin.cookie }, redirect: 'manual' });
      expect(response.status, path).toBe(200);
      expect(response.headers.get('cache-control'), path).toMatch(/no-store/);
      expect(response.headers.getSetCookie(), path).toEqual([]);
    }
  });

  it('follow a role change on the next request (checked against the database)', async () => {
    const user = await registerUser(server);
    const session = await login(server, user.email, user.password);
    expect((await send({ method: 'GET', path: '/api/blogs/comment' }, bearer(session))).status).toBe(403);
    const db = new Database(server.databasePath);
    try {
      db.prepare('update users set is_admin = 1 where id = ?').run(user.id);
    } finally {
      db.close();
    }
    expect((await send({ method: 'GET', path: '/api/blogs/comment' }, bearer(session))).status).toBe(200);
    const db2 = new Database(server.databasePath);
    try {
      db2.prepare('update users set is_admin = 0 where id = ?').run(user.id);
    } finally {
      db2.close();
    }
    expect((await send({ method: 'GET', path: '/admin' }, { Cookie: session.cookie })).status).toBe(302);
  });
});
