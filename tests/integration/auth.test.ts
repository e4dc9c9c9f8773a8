import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startServer, type TestServer } from '../support/server.ts';
import { bearer, login, loginAsAdmin, loginAsNewUser, registerUser, uniqueAccount, type Session } from '../support/auth.ts';

/**
 * Accounts over HTTP against the real built server: register, login, logout and me, the session
 * cookie's flags, what an ended or forged token gets, brute-force limits, and that public pages
 * never carry Set-Cookie or anything of the user who asked.
 */

interface Answer {
  status: number;
  headers: Headers;
  text: string;
  body: unknown;
}

function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}

async function call(server: TestServer, path: string, init: RequestInit = {}): Promise<Answer> {
  const response = await fetch(server.url(path), { redirect: 'manual', ...init });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, body: parseJson(text) };
}

function postJson(server: TestServer, path: string, data: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  return call(server, path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(data),
  });
}

const me = (server: TestServer, headers: Record<string, string> = {}) => call(server, '/api/users/me', { headers });

/** The attributes of every <input> in the HTML, whatever their order. */
function inputsOf(html: string): Array<Record<string, string>> {
  return [...html.matchAll(/<input\b([^>]*)>/g)].map((m) =>
    Object.fromEntries([...m[1]!.matchAll(/([\w-]+)(?:="([^"]*)")?/g)].map((a) => [a[1]!.toLowerCase(), a[2] ?? ''])),
  );
}

function sessionCookieHeader(answer: Answer): string | undefined {
  return answer.headers.getSetCookie().find((c) => /^(__Host-)?session=/.test(c));
}

/** Ages a session in the database, as if it had been idle or alive that long. */
function ageSession(server: TestServer, token: string, field: 'created_at' | 'last_verified_at', byMs: number): void {
  const db = new Database(server.databasePath);
  try {
    db.prepare(`update sessions set ${field} = ${field} - ? where id = ?`).run(byMs, token.split('.')[0]);
  } finally {
    db.close();
  }
}

const generous = { RATE_LIMIT_REGISTER_IP: '1000', RATE_LIMIT_LOGIN_ACCOUNT: '1000', RATE_LIMIT_LOGIN_IP: '1000' };

describe('accounts', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startServer({ env: generous });
  });

  afterAll(async () => {
    await server?.stop();
  });

  describe('POST /api/users/register', () => {
    it('creates a reader: 201 with {message, user:{id,username,email}} and nothing else', async () => {
      const account = uniqueAccount('reg');
      const answer = await postJson(server, '/api/users/register', account);
      expect(answer.status).toBe(201);
      expect(answer.body).toEqual({
        message: 'Registration successful! Please log in.',
        user: { id: expect.any(Number), username: account.username, email: account.email },
      });
      expect(answer.text).not.toMatch(/password|argon/i);
      expect(sessionCookieHeader(answer)).toBeUndefined();
    });

    it('never makes an admin, whatever the body says', async () => {
      const account = uniqueAccount('sneaky');
      const answer = await postJson(server, '/api/users/register', { ...account, is_admin: true, isAdmin: 1, role: 'admin' });
      expect(answer.status).toBe(201);
      const session = await login(server, account.email, account.password);
      expect(session.isAdmin).toBe(false);
      expect((await me(server, bearer(session))).body).toMatchObject({ user: { is_admin: false } });
      expect((await call(server, '/api/blogs/comment', { headers: bearer(session) })).status).toBe(403);
    });

    it('answers 409 for a taken email in any case, and for a taken username in any case', async () => {
      const first = await registerUser(server);
      const byEmail = await postJson(server, '/api/users/register', { ...uniqueAccount(), email: first.email.toUpperCase() });
      expect(byEmail.status).toBe(409);
      expect(byEmail.body).toMatchObject({ error: 'conflict', message: 'That email is already registered.' });
      const byName = await postJson(server, '/api/users/register', {
        ...uniqueAccount(),
        username: first.username.toUpperCase(),
      });
      expect(byName.status).toBe(409);
      expect(byName.body).toMatchObject({ error: 'conflict', message: 'That username is taken.' });
      const adminEmail = await postJson(server, '/api/users/register', { ...uniqueAccount(), email: ADMIN_EMAIL });
      expect(adminEmail.status).toBe(409);
    });

    it('answers 400 with a message for every invalid field', async () => {
      const good = uniqueAccount('valid');
      const cases: Array<[string, Record<string, unknown>]> = [
        ['no body fields', {}],
        ['missing password', { username: good.username, email: good.email }],
        ['not an email', { ...good, email: 'not-an-email' }],
        ['short password', { ...good, password: 'short' }],
        ['overlong password', { ...good, password: 'x'.repeat(257) }],
        ['short username', { ...good, username: 'ab' }],
        ['long username', { ...good, username: 'a'.repeat(31) }],
        ['username with spaces', { ...good, username: 'has space' }],
        ['username with markup', { ...good, username: '<script>' }],
        ['numbers for strings', { username: 12345, email: 42, password: 12345678 }],
      ];
      for (const [label, data] of cases) {
        const answer = await postJson(server, '/api/users/register', data);
        expect(answer.status, label).toBe(400);
        expect(answer.body, label).toMatchObject({ error: 'invalid_input', message: expect.any(String) });
      }
      // None of them created an account.
      expect((await postJson(server, '/api/users/register', good)).status).toBe(201);
    });

    it('answers 415, 400 and 413 for a body that is not a small JSON object', async () => {
      const form = await call(server, '/api/users/register', {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: 'username=abc&email=a@b.org&password=12345678',
      });
      expect(form.status).toBe(415);
      const broken = await call(server, '/api/users/register', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: '{"username":',
      });
      expect(broken.status).toBe(400);
      expect(broken.body).toMatchObject({ error: 'invalid_json' });
      expect((await postJson(server, '/api/users/register', [1, 2])).status).toBe(400);
      expect((await postJson(server, '/api/users/register', { ...uniqueAccount(), pad: 'x'.repeat(20_000) })).status).toBe(413);
    });

    it('answers 405 with JSON for other methods', async () => {
      const answer = await call(server, '/api/users/register');
      expect(answer.status).toBe(405);
      expect(answer.body).toMatchObject({ error: 'method_not_allowed' });
      expect(answer.headers.get('allow')).toBe('POST');
      const me = await call(server, '/api/users/me', { method: 'DELETE' });
      expect(me.status).toBe(401); // deny by default: an unknown write needs an admin first
      const head = await call(server, '/api/users/me', { method: 'HEAD' });
      expect(head.status).toBe(200);
    });
  });

  describe('POST /api/users/login', () => {
    it('answers {token, is_admin, username} and sets the session cookie with safe flags', async () => {
      const user = await registerUser(server);
      const answer = await postJson(server, '/api/users/login', { email: user.email, password: user.password });
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({
        token: expect.stringMatching(/^[\w-]{16}\.[\w-]{43}$/),
        is_admin: false,
        username: user.username,
      });
      expect(answer.headers.get('cache-control')).toBe('no-store');
      const cookie = sessionCookieHeader(answer)!;
      expect(cookie).toBeDefined();
      const token = (answer.body as { token: string }).token;
      expect(cookie.startsWith(`session=${token};`)).toBe(true);
      expect(cookie).toMatch(/;\s*HttpOnly/i);
      expect(cookie).toMatch(/;\s*SameSite=Lax/i);
      expect(cookie).toMatch(/;\s*Path=\//i);
      expect(cookie).toMatch(/;\s*Max-Age=2592000/i);
      expect(cookie).not.toMatch(/Domain=/i);
      // This test server has an http origin and NODE_ENV=test: a Secure cookie would never come back.
      expect(cookie).not.toMatch(/;\s*Secure/i);
    });

    it('tells the admin apart', async () => {
      const answer = await postJson(server, '/api/users/login', { email: ADMIN_EMAIL.toUpperCase(), password: ADMIN_PASSWORD });
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ is_admin: true, username: expect.any(String) });
    });

    it('answers the same 401 for a wrong password and for an unknown email', async () => {
      const user = await registerUser(server);
      const wrong = await postJson(server, '/api/users/login', { email: user.email, password: 'not the password' });
      const unknown = await postJson(server, '/api/users/login', {
        email: `nobody-${Date.now()}@example.test`,
        password: 'not the password',
      });
      for (const answer of [wrong, unknown]) {
        expect(answer.status).toBe(401);
        expect(answer.body).toEqual({ error: 'invalid_credentials', message: 'Invalid email or password.' });
        expect(sessionCookieHeader(answer)).toBeUndefined();
      }
      expect(wrong.text).toBe(unknown.text);
      // That both cost the same argon2 verify is proven where it is decided, without a stopwatch:
      // src/server/auth/accounts.test.ts watches the hashes a login verifies against.
    });

    it('answers 400 for a missing field or a malformed email', async () => {
      for (const data of [
        {},
        { email: 'a@b.org' },
        { password: 'x' },
        { email: 'nope', password: 'whatever' },
        { email: ['a@b.org'], password: 'x' },
      ]) {
        const answer = await postJson(server, '/api/users/login', data);
        expect(answer.status, JSON.stringify(data)).toBe(400);
        expect(answer.body).toMatchObject({ error: 'invalid_input' });
      }
    });

    it('gives a new session on every login; the old token stays valid for API clients', async () => {
      const user = await registerUser(server);
      const a = await login(server, user.email, user.password);
      const b = await login(server, user.email, user.password);
      expect(a.token).not.toBe(b.token);
      expect((await me(server, bearer(a))).body).toMatchObject({ user: { username: user.username } });
      expect((await me(server, bearer(b))).body).toMatchObject({ user: { username: user.username } });
    });

    it("ends the browser's previous session when it logs in again with its cookie", async () => {
      const user = await registerUser(server);
      const first = await login(server, user.email, user.password);
      const again = await postJson(
        server,
        '/api/users/login',
        { email: user.email, password: user.password },
        { Cookie: first.cookie, Origin: server.origin },
      );
      expect(again.status).toBe(200);
      expect((await me(server, bearer(first))).body).toEqual({ user: null });
    });
  });

  describe('GET /api/users/me', () => {
    it('answers {user:null} for anonymous requests, never cached', async () => {
      const answer = await me(server);
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ user: null });
      expect(answer.headers.get('cache-control')).toBe('no-store');
    });

    it('answers the user for a Bearer token and for the cookie, is_admin a boolean, no hash', async () => {
      const session = await loginAsNewUser(server);
      for (const headers of [bearer(session), { Cookie: session.cookie }]) {
        const answer = await me(server, headers);
        expect(answer.body).toEqual({
          user: { id: session.user.id, username: session.user.username, email: session.user.email, is_admin: false },
        });
        expect(answer.text).not.toMatch(/password|hash|argon/i);
      }
      const admin = await loginAsAdmin(server);
      expect((await me(server, bearer(admin))).body).toMatchObject({ user: { email: ADMIN_EMAIL, is_admin: true } });
    });

    it('treats garbage, tampered and unknown tokens as anonymous', async () => {
      const session = await loginAsNewUser(server);
      const [id, secret] = session.token.split('.') as [string, string];
      const tampered = `${id}.${secret.slice(0, -2)}${secret.endsWith('AA') ? 'BB' : 'AA'}`;
      const unknownId = `AAAAAAAAAAAAAAAA.${secret}`;
      for (const token of ['garbage', '', 'a.b', tampered, unknownId, `${session.token}x`, `${session.token} extra`]) {
        expect((await me(server, { Authorization: `Bearer ${token}` })).body, token).toEqual({ user: null });
        expect((await me(server, { Cookie: `session=${encodeURIComponent(token)}` })).body, token).toEqual({ user: null });
      }
      // The forgeries did not end the real session.
      expect((await me(server, bearer(session))).body).toMatchObject({ user: { username: session.username } });
    });

    it('ignores the cookie when a Bearer header is present', async () => {
      const session = await loginAsNewUser(server);
      const answer = await me(server, { Authorization: 'Bearer garbage', Cookie: session.cookie });
      expect(answer.body).toEqual({ user: null });
    });
  });

  describe('logout', () => {
    it('POST /api/users/logout with Bearer: 204, the token is dead everywhere', async () => {
      const session = await loginAsNewUser(server);
      const answer = await call(server, '/api/users/logout', { method: 'POST', headers: bearer(session) });
      expect(answer.status).toBe(204);
      expect(answer.text).toBe('');
      expect((await me(server, bearer(session))).body).toEqual({ user: null });
      expect((await me(server, { Cookie: session.cookie })).body).toEqual({ user: null });
      expect((await call(server, '/api/blogs/comment', { headers: bearer(session) })).status).toBe(401);
    });

    it('POST /api/users/logout with the cookie from our own page: 204 and the cookie is cleared', async () => {
      const session = await loginAsNewUser(server);
      const answer = await call(server, '/api/users/logout', {
        method: 'POST',
        headers: { Cookie: session.cookie, Origin: server.origin },
      });
      expect(answer.status).toBe(204);
      const cleared = sessionCookieHeader(answer)!;
      expect(cleared).toMatch(/^session=;/);
      expect(cleared).toMatch(/Max-Age=0/i);
      expect((await me(server, bearer(session))).body).toEqual({ user: null });
    });

    it('refuses a cookie logout from another site (logout CSRF)', async () => {
      const session = await loginAsNewUser(server);
      const answer = await call(server, '/api/users/logout', {
        method: 'POST',
        headers: { Cookie: session.cookie, Origin: 'https://evil.example' },
      });
      expect(answer.status).toBe(403);
      expect(answer.body).toMatchObject({ error: 'csrf' });
      expect((await me(server, bearer(session))).body).toMatchObject({ user: { username: session.username } });
    });

    it('answers 204 without a session too, so a stale tab can always log out', async () => {
      expect((await call(server, '/api/users/logout', { method: 'POST' })).status).toBe(204);
    });

    it('GET /logout is a page that ends nothing by itself (a GET never changes state)', async () => {
      const session = await loginAsNewUser(server);
      const page = await call(server, '/logout', { headers: { Cookie: session.cookie } });
      expect(page.status).toBe(200);
      expect(page.text).toContain('Logging out...');
      expect(page.headers.get('cache-control')).toBe('no-store');
      expect(sessionCookieHeader(page)).toBeUndefined();
      expect((await me(server, bearer(session))).body).toMatchObject({ user: { username: session.username } });
    });

    it('POST /logout (the no-JavaScript button) ends the session and redirects to /login', async () => {
      const session = await loginAsNewUser(server);
      const answer = await call(server, '/logout', {
        method: 'POST',
        headers: { Cookie: session.cookie, Origin: server.origin },
      });
      expect(answer.status).toBe(303);
      expect(answer.headers.get('location')).toBe('/login');
      expect(sessionCookieHeader(answer)).toMatch(/^session=;.*Max-Age=0/i);
      expect((await me(server, bearer(session))).body).toEqual({ user: null });
    });
  });

  describe('session lifetime', () => {
    it('ends a session idle for 10 days and deletes it', async () => {
      const session = await loginAsNewUser(server);
      ageSession(server, session.token, 'last_verified_at', 10 * 24 * 3600_000);
      expect((await me(server, bearer(session))).body).toEqual({ user: null });
      const db = new Database(server.databasePath, { readonly: true });
      try {
        expect(db.prepare('select count(*) as n from sessions where id = ?').get(session.token.split('.')[0])).toEqual({ n: 0 });
      } finally {
        db.close();
      }
    });

    it('ends even a busy session 30 days after login', async () => {
      const session = await loginAsNewUser(server);
      ageSession(server, session.token, 'created_at', 30 * 24 * 3600_000);
      expect((await me(server, bearer(session))).body).toEqual({ user: null });
    });

    it('keeps a session used 9 days after its last use', async () => {
      const session = await loginAsNewUser(server);
      ageSession(server, session.token, 'last_verified_at', 9 * 24 * 3600_000);
      expect((await me(server, bearer(session))).body).toMatchObject({ user: { username: session.username } });
    });
  });

  describe('pages', () => {
    it('/login has the form of docs/product.md#public-screens and is never stored', async () => {
      const page = await call(server, '/login');
      expect(page.status).toBe(200);
      expect(page.headers.get('cache-control')).toBe('no-store');
      expect(page.headers.get('x-page-store')).toBeNull();
      expect(page.text).toContain('Welcome Back!');
      const inputs = inputsOf(page.text);
      expect(inputs).toContainEqual(expect.objectContaining({ name: 'email', type: 'email', required: '' }));
      expect(inputs).toContainEqual(expect.objectContaining({ name: 'password', type: 'password', required: '' }));
      expect(page.text).toMatch(/<button[^>]*type="submit"[^>]*>Log In<\/button>/);
      expect(page.text).toMatch(/<a href="#" aria-disabled="true"[^>]*>Forgot password\?<\/a>/);
      expect(page.text).toContain('<a href="/register">Sign up now</a>');
      expect(sessionCookieHeader(page)).toBeUndefined();
    });

    it('/register has username, email and password, all required', async () => {
      const page = await call(server, '/register');
      expect(page.status).toBe(200);
      expect(page.headers.get('cache-control')).toBe('no-store');
      expect(page.text).toMatch(/<button[^>]*type="submit"[^>]*>Register<\/button>/);
      const inputs = inputsOf(page.text);
      expect(inputs).toContainEqual(expect.objectContaining({ name: 'username', required: '' }));
      expect(inputs).toContainEqual(expect.objectContaining({ name: 'email', type: 'email', required: '' }));
      expect(inputs).toContainEqual(expect.objectContaining({ name: 'password', type: 'password', required: '' }));
    });
  });

  describe('public pages stay shared', () => {
    const publicPaths = ['/', '/blogs', '/blog/1', '/download', '/about', '/contact', '/blogs?category=1', '/no-such-page'];

    it('send no Set-Cookie and nothing of the user, whoever asks', async () => {
      const session = await loginAsNewUser(server);
      const asks: Array<Record<string, string>> = [
        {},
        { Cookie: session.cookie },
        bearer(session),
        { Cookie: 'session=garbage' },
        { Cookie: 'session=AAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' },
      ];
      for (const path of publicPaths) {
        for (const headers of asks) {
          const page = await call(server, path, { headers });
          expect(page.status, path).toBeLessThan(500);
          expect(page.headers.getSetCookie(), `${path} ${JSON.stringify(headers)}`).toEqual([]);
          expect(page.text, path).not.toContain(session.username);
          expect(page.text, path).not.toContain(session.user.email);
        }
      }
    });
  });
});

describe('brute-force limits', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startServer({ env: { RATE_LIMIT_LOGIN_ACCOUNT: '3', RATE_LIMIT_LOGIN_IP: '8', RATE_LIMIT_REGISTER_IP: '4' } });
  });

  afterAll(async () => {
    await server?.stop();
  });

  function expect429(answer: Answer): void {
    expect(answer.status).toBe(429);
    expect(answer.body).toMatchObject({ error: 'rate_limited', message: expect.any(String) });
    const retryAfter = Number(answer.headers.get('retry-after'));
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThan(0);
  }

  it('limits failed logins per IP and email, then per IP; the right password waits too', async () => {
    const a = await registerUser(server);
    const b = await registerUser(server);
    const c = await registerUser(server);
    const wrong = (email: string) => postJson(server, '/api/users/login', { email, password: 'not the password' });

    // A success clears the account's count.
    expect((await wrong(a.email)).status).toBe(401);
    expect((await wrong(a.email)).status).toBe(401);
    await login(server, a.email, a.password);
    for (let i = 0; i < 3; i++) expect((await wrong(a.email)).status).toBe(401);
    const blocked = await wrong(a.email);
    expect429(blocked);
    expect(Number(blocked.headers.get('retry-after'))).toBeLessThanOrEqual(15 * 60);
    expect429(await postJson(server, '/api/users/login', { email: a.email.toUpperCase(), password: a.password }));

    // Another account from the same address is still open until the per-IP count (8) runs out.
    expect((await wrong(b.email)).status).toBe(401);
    expect((await wrong(b.email)).status).toBe(401);
    expect((await wrong(c.email)).status).toBe(401);
    expect429(await wrong(c.email));
    expect429(await postJson(server, '/api/users/login', { email: c.email, password: c.password }));
  });

  it('limits sign-ups per IP', async () => {
    // Three accounts were made above; the fourth is the last this hour.
    expect((await postJson(server, '/api/users/register', uniqueAccount())).status).toBe(201);
    expect429(await postJson(server, '/api/users/register', uniqueAccount()));
    // Malformed attempts are not counted against anyone, and still get their 400.
    expect((await postJson(server, '/api/users/register', { username: 'x' })).status).toBe(400);
  });
});

describe('on an https site', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startServer({ env: { PUBLIC_ORIGIN: 'https://site.example' } });
  });

  afterAll(async () => {
    await server?.stop();
  });

  it('uses a Secure __Host-session cookie', async () => {
    const answer = await postJson(server, '/api/users/login', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
    expect(answer.status).toBe(200);
    const cookie = sessionCookieHeader(answer)!;
    expect(cookie).toMatch(/^__Host-session=[\w-]+\.[\w-]+;/);
    expect(cookie).toMatch(/;\s*Secure/i);
    expect(cookie).toMatch(/;\s*HttpOnly/i);
    expect(cookie).toMatch(/;\s*Path=\//i);
    expect(cookie).not.toMatch(/Domain=/i);
    const pair = cookie.split(';')[0]!;
    expect((await me(server, { Cookie: pair })).body).toMatchObject({ user: { email: ADMIN_EMAIL } });
    // The plain name means nothing here.
    expect((await me(server, { Cookie: pair.replace('__Host-session', 'session') })).body).toEqual({ user: null });
  });

  it('accepts cookie writes from the public origin and refuses others', async () => {
    const session: Session = await loginAsAdmin(server);
    const from = (origin: string) =>
      call(server, '/api/blogs/comment/999999', { method: 'DELETE', headers: { Cookie: session.cookie, Origin: origin } });
    expect((await from('https://evil.example')).status).toBe(403);
    expect((await from('http://site.example')).status).toBe(403);
    expect((await from('https://site.example')).status).toBe(404);
  });
});
