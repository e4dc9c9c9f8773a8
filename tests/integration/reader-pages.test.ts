import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server.ts';
import { loginAsAdmin, registerUser, login, type Session } from '../support/auth.ts';

/**
 * What a new reader noticed, over HTTP against the real built server started empty
 * (SEED_DEMO=false): the 404 status line, card excerpts that keep blocks apart, the calm empty
 * carousel, /login for someone already logged in.
 */

let server: TestServer;
let admin: Session;

beforeAll(async () => {
  server = await startServer({ env: { SEED_DEMO: 'false' } });
  admin = await loginAsAdmin(server);
});

afterAll(async () => {
  await server?.stop();
});

async function adminPost(path: string, body: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(server.url(path), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${admin.token}` },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status !== 201) throw new Error(`POST ${path} answered ${response.status}: ${text}`);
  return JSON.parse(text) as Record<string, unknown>;
}

describe('status line', () => {
  it.each(['/nope', '/a/b/c', '/blog/987654', '/blogs?category=987654'])('%s answers "404 Not Found"', async (path) => {
    const response = await fetch(server.url(path));
    await response.text();
    expect(response.status).toBe(404);
    expect(response.statusText).toBe('Not Found');
  });

  it('a page still answers "200 OK"', async () => {
    const response = await fetch(server.url('/about'));
    await response.text();
    expect(`${response.status} ${response.statusText}`).toBe('200 OK');
  });
});

describe('home page of an empty site', () => {
  it('shows a short "No items to display" box instead of an empty banner', async () => {
    const html = await (await fetch(server.url('/'))).text();
    const box = /<section class="carousel-empty" aria-label="Highlights"><p>([^<]*)<\/p><\/section>/.exec(html);
    expect(box?.[1]).toBe('No items to display');
    expect(html).not.toContain('<section class="carousel"');
  });
});

describe('card excerpts', () => {
  it('keep a heading apart from the text after it', async () => {
    const category = await adminPost('/api/categories', { name: 'Excerpts', sequence: 1 });
    await adminPost('/api/blogs', {
      title: 'Excerpt separation',
      content: '<p>Work through it with a pencil in hand.</p><h2>Key ideas</h2><p>Start from definitions</p>',
      category_id: category.id,
      isVideo: '0',
    });
    const html = await (await fetch(server.url(`/blogs?category=${String(category.id)}`))).text();
    const excerpt = /<p class="card-excerpt" dir="auto">([^<]*)<\/p>/.exec(html)?.[1];
    expect(excerpt).toBe('Work through it with a pencil in hand. Key ideas: Start from definitions');
  });
});

describe('/login and /register for someone already logged in', () => {
  it('say who is logged in and offer links instead of the form', async () => {
    const user = await registerUser(server);
    const session = await login(server, user.email, user.password);
    for (const path of ['/login', '/register']) {
      const response = await fetch(server.url(path), { headers: { Cookie: session.cookie } });
      const html = await response.text();
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(html).toContain(`You are logged in as ${user.username}`);
      expect(html).toContain('<a href="/logout">Log Out</a>');
      expect(html).not.toContain('Go to the admin panel');
      expect(html).not.toMatch(/<astro-island[^>]*(LoginForm|RegisterForm)/);
    }
    const anonymous = await (await fetch(server.url('/login'))).text();
    expect(anonymous).toMatch(/<astro-island[^>]*LoginForm/);
    expect(anonymous).not.toContain('You are logged in as');
  });
});
