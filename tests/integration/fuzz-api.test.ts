import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server.ts';
import { loginAsAdmin, type Session } from '../support/auth.ts';
import { snapshotData, type DataSnapshot } from './security-support.ts';
import { until } from '../support/wait.ts';

/**
 * A fuzz run over every /api route of docs/product.md#the-api (issue 6): generated requests with
 * random methods, ids, query strings, JSON bodies of random shapes (and broken ones), multipart
 * bodies of random bytes, and random headers (bad content types, garbage credentials, foreign
 * origins), eight at a time: a fixed number of requests, however long a busy machine takes.
 *
 * Phase 1 sends no valid credential: only the public writes (a comment, a view, a sign-up) can
 * succeed, and each success is counted (views: one per address and article, written in batches). Phase 2 signs its requests as the admin but only reads
 * or sends writes that are invalid by construction (bad ids, broken bodies, random bytes as
 * images). Afterwards: no answer was a 5xx, the server still serves pages, every table is as it
 * was apart from exactly the counted successes.
 *
 * FUZZ_SEED reproduces a run; FUZZ_REQUESTS changes its size.
 */

const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
const TOTAL = Number(process.env.FUZZ_REQUESTS ?? 6_000);
const CONCURRENCY = 8;
/** Only a guard against a hang: a loaded machine may take several times longer than an idle one. */
const PHASE_TIMEOUT_MS = 20 * 60_000;

let server: TestServer;
let admin: Session;
let before: DataSnapshot;
let validIds: { blogs: number[]; categories: number[]; slides: number[]; comments: number[] };

/** mulberry32: small, fast, and the same sequence for the same seed. */
function makeRandom(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)]!;
  const chance = (p: number) => next() < p;
  return { next, int, pick, chance };
}

type Random = ReturnType<typeof makeRandom>;

interface RouteTemplate {
  method: string;
  path: string;
  /** What the body of a well-formed request looks like. */
  body?: 'json' | 'multipart';
  /** A 2xx from this route changes data (counted in phase 1, never allowed in phase 2). */
  write?: boolean;
}

/** docs/product.md#the-api, every route. */
const ROUTES: RouteTemplate[] = [
  { method: 'GET', path: '/api/carousel' },
  { method: 'POST', path: '/api/carousel', body: 'multipart', write: true },
  { method: 'DELETE', path: '/api/carousel/:slide', write: true },
  { method: 'GET', path: '/api/blogs/top-viewed' },
  { method: 'GET', path: '/api/blogs/recent' },
  { method: 'GET', path: '/api/blogs' },
  { method: 'GET', path: '/api/blogs/:blog' },
  { method: 'PUT', path: '/api/blogs/:blog/click', write: true },
  { method: 'POST', path: '/api/blogs/:blog/comment', body: 'json', write: true },
  { method: 'GET', path: '/api/blogs/comment' },
  { method: 'DELETE', path: '/api/blogs/comment/:comment', write: true },
  { method: 'POST', path: '/api/blogs', body: 'json', write: true },
  { method: 'PUT', path: '/api/blogs/:blog', body: 'json', write: true },
  { method: 'DELETE', path: '/api/blogs/:blog', write: true },
  { method: 'POST', path: '/api/blogs/upload-image-cloudinary', body: 'multipart', write: true },
  { method: 'POST', path: '/api/blogs/upload-pdf-local', body: 'multipart', write: true },
  { method: 'GET', path: '/api/categories' },
  { method: 'POST', path: '/api/categories', body: 'json', write: true },
  { method: 'PUT', path: '/api/categories/:category', body: 'json', write: true },
  { method: 'DELETE', path: '/api/categories/:category', write: true },
  { method: 'POST', path: '/api/users/register', body: 'json', write: true },
  { method: 'POST', path: '/api/users/login', body: 'json' },
  { method: 'POST', path: '/api/users/logout', write: true },
  { method: 'GET', path: '/api/users/me' },
];

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'PROPFIND'];
const FIELD_NAMES = [
  'title',
  'content',
  'content_source',
  'category_id',
  'image',
  'pdf_link',
  'isVideo',
  'video_link',
  'payment_link',
  'form_name',
  'form_link',
  'name',
  'sequence',
  'comment',
  'username',
  'contact',
  'email',
  'password',
  'is_admin',
  '__proto__',
  'constructor',
  'id',
  '_id',
];
const NASTY_STRINGS = [
  "'",
  '"',
  "' OR 1=1--",
  'UNION SELECT * FROM users',
  '%',
  '_',
  '*',
  'NEAR(',
  '\u0000',
  '\uFFFF',
  '\uD800',
  '😀',
  '<script>top.__fuzz=1</script>',
  '../../etc/passwd',
  'javascript:alert(1)',
  'https://example.org/x',
  'a@b.c',
  '',
  ' ',
  '\n',
  'null',
  'true',
  '-1',
  '0',
  '1e999',
  'x'.repeat(300),
  '\u202e',
];
const BAD_IDS = [
  '0',
  '-1',
  'abc',
  '1.5',
  '1e3',
  '00',
  '+1',
  '%20',
  '%00',
  '99999999999999999999',
  '9007199254740993',
  'null',
  '..',
  '%2e%2e',
  '1%2F2',
  "'",
  '1%20OR%201%3D1',
  '999999',
];
const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'APPLICATION/JSON',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
  'multipart/form-data; boundary=zzz',
  'application/jsonx',
  'text/html',
  'application/json, text/html',
  '*/*',
  '\tapplication/json',
];

/** Lone surrogates have no UTF-8 form: they are sent as U+FFFD, as a browser would. */
const enc = (text: string) => encodeURIComponent(text.toWellFormed());

function randomString(r: Random): string {
  if (r.chance(0.5)) return r.pick(NASTY_STRINGS);
  const length = r.chance(0.05) ? 2_000 + r.int(30_000) : r.int(40);
  let out = '';
  for (let i = 0; i < length; i++) out += String.fromCharCode(r.chance(0.9) ? 32 + r.int(95) : r.int(0xffff));
  return out;
}

function randomValue(r: Random, depth = 0): unknown {
  switch (r.int(depth > 3 ? 5 : 7)) {
    case 0:
      return randomString(r);
    case 1:
      return r.pick([0, 1, -1, 2 ** 53, -(2 ** 53), 1e308, -1e308, 0.5, 1e-9, validId(r, 'blogs'), validId(r, 'categories')]);
    case 2:
      return r.chance(0.5);
    case 3:
      return null;
    case 4:
      return validId(r, r.pick(['blogs', 'categories', 'slides', 'comments'] as const));
    case 5:
      return Array.from({ length: r.int(4) }, () => randomValue(r, depth + 1));
    default:
      return randomObject(r, depth + 1);
  }
}

function randomObject(r: Random, depth = 0): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  for (let i = r.int(8); i > 0; i--)
    object[r.chance(0.85) ? r.pick(FIELD_NAMES) : randomString(r).slice(0, 20)] = randomValue(r, depth);
  return object;
}

function validId(r: Random, kind: keyof typeof validIds): number {
  const ids = validIds[kind];
  return ids.length ? r.pick(ids) : 1;
}

/** A JSON text: usually a random object, sometimes another JSON value or something broken. */
function randomJsonText(r: Random, mustBeInvalid: boolean): string {
  const roll = r.int(10);
  if (mustBeInvalid || roll < 3) {
    const text = JSON.stringify(randomObject(r));
    return r.pick([
      text.slice(0, Math.max(1, r.int(text.length))),
      `${text}}`,
      `{${text}`,
      text.replace(/"/g, "'") || "{'a':1}",
      'nul',
      '',
      '[1,',
      `{"a":${'['.repeat(2_000)}`,
      '\uFEFF\uFEFF{}x',
      '{"title":"x",}',
    ]);
  }
  if (roll < 5) return JSON.stringify(r.pick([null, [], 'text', 42, true, [randomObject(r)], randomString(r)]));
  return JSON.stringify(randomObject(r));
}

function randomBytes(r: Random, size: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(size);
  for (let i = 0; i < size; i++) bytes[i] = r.int(256);
  return bytes;
}

function randomQuery(r: Random): string {
  if (r.chance(0.4)) return '';
  const parts: string[] = [];
  for (let i = 1 + r.int(4); i > 0; i--) {
    const key = r.pick(['category', 'search', 'limit', 'offset', 'page', 'id', 'x', 'search[]', '__proto__', '']);
    const value = r.chance(0.5)
      ? String(r.pick([...BAD_IDS, String(validId(r, 'categories')), '10', '200', '201']))
      : randomString(r).slice(0, 200);
    parts.push(`${enc(key)}=${r.chance(0.9) ? enc(value) : value.replace(/[^\x21-\x7e]/g, '')}`);
  }
  return `?${parts.join('&')}`;
}

function fillPath(r: Random, template: string, invalidIdsOnly: boolean): string {
  const kinds: Record<string, keyof typeof validIds> = {
    blog: 'blogs',
    category: 'categories',
    slide: 'slides',
    comment: 'comments',
  };
  let path = template.replace(/:(\w+)/g, (_, name: string) =>
    invalidIdsOnly || r.chance(0.4) ? r.pick(BAD_IDS) : String(validId(r, kinds[name]!)),
  );
  // Routing noise: trailing slash, doubled slash, upper case, an extra segment.
  const noise = r.int(12);
  if (noise === 0) path += '/';
  else if (noise === 1) path = path.replace('/api/', '/api//');
  else if (noise === 2) path = path.toUpperCase();
  else if (noise === 3) path += `/${enc(randomString(r).slice(0, 10))}`;
  return path;
}

interface Generated {
  label: string;
  path: string;
  init: RequestInit;
  template: RouteTemplate;
  method: string;
}

/** One request. `asAdmin`: signed as the admin, and every write invalid by construction. */
function generate(r: Random, asAdmin: boolean): Generated {
  let template = r.pick(ROUTES);
  // The admin phase never logs itself out (a valid write).
  while (asAdmin && template.path === '/api/users/logout') template = r.pick(ROUTES);
  const method = r.chance(0.75) ? template.method : r.pick(METHODS);
  const isWrite = !['GET', 'HEAD', 'OPTIONS'].includes(method);
  const path = fillPath(r, template.path, asAdmin && isWrite) + randomQuery(r);
  const headers: Record<string, string> = {};

  if (asAdmin) headers.Authorization = `Bearer ${admin.token}`;
  else if (r.chance(0.3)) {
    headers.Authorization = r.pick([
      `Bearer ${randomString(r).replace(/[^\x21-\x7e]/g, '')}`,
      'Bearer ',
      'Basic YWRtaW46YWRtaW4=',
      `Bearer ${admin.token.slice(0, -3)}abc`,
      `Bearer ${admin.token}x`,
      'bearer',
      `Bearer ${'a'.repeat(4000)}`,
    ]);
  }
  if (r.chance(0.2))
    headers.Cookie = r.pick([
      'session=garbage',
      `session=${admin.token.split('.')[0]}.x`,
      '__Host-session=x; session=y',
      'session=',
      `session=${'%'.repeat(300)}`,
    ]);
  if (r.chance(0.2)) headers.Origin = r.pick(['https://evil.example', 'null', server.origin, 'http://127.0.0.1']);
  if (r.chance(0.15)) headers['Sec-Fetch-Site'] = r.pick(['cross-site', 'same-site', 'same-origin', 'none', 'garbage']);
  if (r.chance(0.1)) headers['X-Forwarded-For'] = r.pick(['1.2.3.4', 'garbage', '::1, 10.0.0.1', '999.999.999.999']);
  if (r.chance(0.1)) headers['Accept-Encoding'] = r.pick(['br', 'gzip;q=0', '*', 'identity;q=0', 'x'.repeat(500)]);
  if (r.chance(0.1)) headers.Accept = r.pick(['text/html', 'application/json', '*/*', 'image/png', '']);
  if (r.chance(0.05)) headers['X-Page-Store-Render'] = randomString(r).replace(/[^\x21-\x7e]/g, '') || 'x';

  let body: BodyInit | undefined;
  const wantsBody = method !== 'GET' && method !== 'HEAD' && (template.body !== undefined || r.chance(0.2));
  if (wantsBody) {
    const shape = template.body === 'multipart' && r.chance(0.8) ? 'multipart' : 'json';
    if (shape === 'multipart') {
      const form = new FormData();
      for (let i = r.int(4); i > 0; i--)
        form.append(r.pick(['title', 'image', 'pdfFile', 'x', '']), randomString(r).slice(0, 300));
      const size = r.chance(0.05) ? 200_000 + r.int(400_000) : r.int(4_000);
      form.append(
        r.pick(['image', 'pdfFile', 'file']),
        new Blob([randomBytes(r, size)], { type: r.pick(['image/png', 'application/pdf', 'text/html', '']) }),
        r.pick(['x.png', 'a.pdf', '../../x.png', 'e\r\nvil.jpg', '']),
      );
      body = form;
    } else if (!asAdmin && template.path.endsWith('/comment') && r.chance(0.15)) {
      // Some well-formed public writes, so the final count check has successes to count.
      body = JSON.stringify({
        username: `fuzz ${randomString(r).slice(0, 20)}`,
        comment: `fuzz ${randomString(r).slice(0, 300)}`,
        ...(r.chance(0.5) ? { contact: randomString(r).slice(0, 50) } : {}),
      });
      headers['Content-Type'] = 'application/json';
    } else if (!asAdmin && template.path === '/api/users/register' && r.chance(0.1)) {
      const name = `fz${r.int(1e9).toString(36)}`;
      body = JSON.stringify({ username: name, email: `${name}@example.test`, password: `pw-${name}-long`, is_admin: true });
      headers['Content-Type'] = 'application/json';
    } else {
      body = randomJsonText(r, asAdmin);
      const type = r.chance(0.75) ? 'application/json' : r.pick(CONTENT_TYPES);
      headers['Content-Type'] = type;
    }
  }
  return {
    label: `${method} ${path.slice(0, 120)} ${JSON.stringify(headers).slice(0, 160)}`,
    path,
    init: { method, headers, body, redirect: 'manual' },
    template,
    method,
  };
}

interface Tally {
  sent: number;
  byStatus: Map<number, number>;
  serverErrors: string[];
  transportErrors: string[];
  /** Successful writes, by what they change. */
  comments: Map<number, number>;
  clicks: Map<number, number>;
  registrations: number;
  otherWrites: string[];
  /** Requests per route of ROUTES. */
  perRoute: Map<string, number>;
}

function newTally(): Tally {
  return {
    sent: 0,
    byStatus: new Map(),
    serverErrors: [],
    transportErrors: [],
    comments: new Map(),
    clicks: new Map(),
    registrations: 0,
    otherWrites: [],
    perRoute: new Map(),
  };
}

function idIn(path: string, pattern: RegExp): number | null {
  const match = pattern.exec(path);
  return match ? Number(match[1]) : null;
}

/** Sends `count` generated requests, CONCURRENCY at a time. */
async function runPhase(r: Random, count: number, asAdmin: boolean): Promise<Tally> {
  const tally = newTally();
  let issued = 0;
  const worker = async () => {
    while (issued < count) {
      issued++;
      const request = generate(r, asAdmin);
      const route = `${request.template.method} ${request.template.path}`;
      tally.perRoute.set(route, (tally.perRoute.get(route) ?? 0) + 1);
      let status: number;
      try {
        const response = await fetch(server.url(request.path), request.init);
        await response.arrayBuffer();
        status = response.status;
      } catch (error) {
        // A connection closed after a 413 on a body still being sent is expected of a refusal;
        // anything else is recorded and judged below.
        tally.transportErrors.push(`${request.label}: ${String((error as Error).cause ?? error)}`);
        continue;
      } finally {
        tally.sent++;
      }
      tally.byStatus.set(status, (tally.byStatus.get(status) ?? 0) + 1);
      if (status >= 500) tally.serverErrors.push(`${status} ${request.label}`);
      const isWrite = !['GET', 'HEAD', 'OPTIONS'].includes(request.method);
      if (status >= 200 && status < 300 && isWrite) {
        const path = request.path.split('?')[0]!.replace(/\/{2,}/g, '/');
        const comment = idIn(path, /^\/api\/blogs\/(\d+)\/comment\/?$/i);
        const click = idIn(path, /^\/api\/blogs\/(\d+)\/click\/?$/i);
        if (request.method === 'POST' && comment !== null) tally.comments.set(comment, (tally.comments.get(comment) ?? 0) + 1);
        else if (request.method === 'PUT' && click !== null) tally.clicks.set(click, (tally.clicks.get(click) ?? 0) + 1);
        else if (request.method === 'POST' && /^\/api\/users\/register\/?$/i.test(path)) tally.registrations++;
        else if (!(request.method === 'POST' && /^\/api\/users\/(login|logout)\/?$/i.test(path)))
          tally.otherWrites.push(`${status} ${request.label}`);
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return tally;
}

function summary(tally: Tally): string {
  return `${tally.sent} requests; statuses ${JSON.stringify(Object.fromEntries([...tally.byStatus].sort((a, b) => a[0] - b[0])))}; transport errors ${tally.transportErrors.length}`;
}

beforeAll(async () => {
  server = await startServer({
    env: {
      RATE_LIMIT_COMMENT_IP: '1000000',
      RATE_LIMIT_LOGIN_IP: '1000000',
      RATE_LIMIT_LOGIN_ACCOUNT: '1000000',
      RATE_LIMIT_REGISTER_IP: '1000000',
    },
  });
  admin = await loginAsAdmin(server);
  before = await snapshotData(server, admin.token);
  const ids = (table: string) => (before.tables[table] as Array<{ id: number }>).map((row) => row.id);
  validIds = { blogs: ids('blogs'), categories: ids('categories'), slides: ids('carousel_slides'), comments: ids('comments') };
});

afterAll(async () => {
  await server?.stop();
});

describe(`fuzz over every /api route (seed ${SEED})`, () => {
  const random = makeRandom(SEED);
  const tallies: { anonymous?: Tally; admin?: Tally } = {};

  it('phase 1, no valid credential: no 5xx, only public writes succeed', { timeout: PHASE_TIMEOUT_MS }, async () => {
    const tally = await runPhase(random, Math.ceil(TOTAL * 0.65), false);
    tallies.anonymous = tally;
    console.log(
      `[fuzz seed ${SEED}] anonymous: ${summary(tally)}; comments ${[...tally.comments.values()].reduce((a, b) => a + b, 0)}, clicks ${[...tally.clicks.values()].reduce((a, b) => a + b, 0)}, sign-ups ${tally.registrations}`,
    );
    expect(tally.serverErrors.slice(0, 10)).toEqual([]);
    expect(tally.otherWrites.slice(0, 10)).toEqual([]);
    // The only transport failures allowed are resets after a refused oversized body.
    expect(tally.transportErrors.filter((e) => !/EPIPE|ECONNRESET|other side closed|SocketError/.test(e)).slice(0, 5)).toEqual(
      [],
    );
    expect(tally.transportErrors.length).toBeLessThan(tally.sent / 100);
  });

  it(
    'phase 2, as the admin: reads and invalid writes only, no 5xx, no write succeeds',
    { timeout: PHASE_TIMEOUT_MS },
    async () => {
      const tally = await runPhase(random, TOTAL - (tallies.anonymous?.sent ?? 0), true);
      tallies.admin = tally;
      console.log(`[fuzz seed ${SEED}] admin: ${summary(tally)}`);
      expect(tally.serverErrors.slice(0, 10)).toEqual([]);
      expect(tally.otherWrites.slice(0, 10)).toEqual([]);
      expect(tally.comments.size + tally.clicks.size + tally.registrations).toBe(0);
      expect(tally.transportErrors.filter((e) => !/EPIPE|ECONNRESET|other side closed|SocketError/.test(e)).slice(0, 5)).toEqual(
        [],
      );
    },
  );

  it('sent every one of its requests, over every route', () => {
    const sent = (tallies.anonymous?.sent ?? 0) + (tallies.admin?.sent ?? 0);
    expect(sent).toBe(TOTAL);
    for (const route of ROUTES) {
      const name = `${route.method} ${route.path}`;
      const count = (tallies.anonymous?.perRoute.get(name) ?? 0) + (tallies.admin?.perRoute.get(name) ?? 0);
      expect(count, name).toBeGreaterThanOrEqual(Math.floor(sent / ROUTES.length / 3));
    }
  });

  it('the server still serves pages and the API', async () => {
    const home = await fetch(server.url('/'));
    expect(home.status).toBe(200);
    expect(await home.text()).toContain('</html>');
    expect((await fetch(server.url('/api/blogs?limit=1'))).status).toBe(200);
    expect((await fetch(server.url('/api/users/me'), { headers: { Authorization: `Bearer ${admin.token}` } })).status).toBe(200);
  });

  it('the data changed only by the counted public writes', async () => {
    const anonymous = tallies.anonymous!;
    // Every request came from one address: an article clicked at all gained exactly one view,
    // written within about a second of the click. Wait for the write, then compare everything.
    const expectedClicks = (blog: Record<string, unknown> & { id: number }, old: Record<string, unknown>) =>
      Number(old.clicks) + Math.min(1, anonymous.clicks.get(blog.id) ?? 0);
    const viewsWritten = (snapshot: DataSnapshot) =>
      (snapshot.tables.blogs as Array<Record<string, unknown> & { id: number }>).every(
        (blog, i) => Number(blog.clicks) === expectedClicks(blog, (before.tables.blogs as Array<Record<string, unknown>>)[i]!),
      );
    // The views are written in batches: wait for them (the check below says what is missing if never).
    const after = await until(() => snapshotData(server, admin.token), viewsWritten, 'the counted views to be written').catch(
      () => snapshotData(server, admin.token),
    );
    for (const table of ['categories', 'carousel_slides', 'uploads'])
      expect(after.tables[table], table).toEqual(before.tables[table]);
    expect(after.api.categories).toEqual(before.api.categories);
    expect(after.api.carousel).toEqual(before.api.carousel);

    // Blogs: only their view counts moved, each by one view if it was clicked at all.
    type Row = Record<string, unknown> & { id: number };
    const blogsBefore = before.tables.blogs as Row[];
    const blogsAfter = after.tables.blogs as Row[];
    expect(blogsAfter.map((b) => b.id)).toEqual(blogsBefore.map((b) => b.id));
    blogsAfter.forEach((blog, i) => {
      const old = blogsBefore[i]!;
      expect({ ...blog, clicks: 0 }).toEqual({ ...old, clicks: 0 });
      expect(Number(blog.clicks), `clicks of blog ${blog.id}`).toBe(expectedClicks(blog, old));
    });

    // Comments: every old one untouched, plus exactly the successful posts, on their articles.
    const commentsBefore = before.tables.comments as Row[];
    const commentsAfter = after.tables.comments as Row[];
    expect(commentsAfter.slice(0, commentsBefore.length)).toEqual(commentsBefore);
    const added = commentsAfter.slice(commentsBefore.length);
    const addedPerBlog = new Map<number, number>();
    for (const comment of added) addedPerBlog.set(Number(comment.blog_id), (addedPerBlog.get(Number(comment.blog_id)) ?? 0) + 1);
    expect(Object.fromEntries(addedPerBlog)).toEqual(Object.fromEntries(anonymous.comments));

    // Accounts: every old one untouched (no one became an admin), plus the successful sign-ups.
    const usersBefore = before.tables.users as Row[];
    const usersAfter = after.tables.users as Row[];
    expect(usersAfter.slice(0, usersBefore.length)).toEqual(usersBefore);
    const newUsers = usersAfter.slice(usersBefore.length);
    expect(newUsers.length).toBe(anonymous.registrations);
    for (const user of newUsers) expect(user.is_admin).toBe(0);
  });
});
