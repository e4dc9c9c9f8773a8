import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server.ts';
import { bearer, login, loginAsAdmin, type Session } from '../support/auth.ts';
import { countsOf, snapshotData, fetchWhole, type DataSnapshot, type WholeAnswer } from './security-support.ts';

/**
 * Hostile input (issue 6, "SQL and FTS" and "Bodies") against the real server:
 * - SQL and FTS5 syntax, NUL bytes, huge and negative numbers in every parameter of every /api
 *   route and of the public pages: never a 5xx, always the JSON error body on /api, and no data
 *   changes (API and database snapshots before and after);
 * - the same text as *values* of valid writes is stored and found literally;
 * - invalid JSON, wrong types, missing fields, deep nesting, 10 MB bodies, wrong content types and
 *   lying Content-Length headers on every write route: 400, 413 or 415, each within seconds.
 */

let server: TestServer;
let admin: Session;
let ids: { blog: number; category: number; slide: number; comment: number };

/**
 * A hang guard, not a budget: an answer that has not come by then never will (a hang, or a
 * pathological parse). A loaded machine may be slow; it is not judged on speed.
 */
const NO_ANSWER_MS = 120_000;
/** Tests that send hundreds of requests: room for a loaded machine (a hang guard, not a budget). */
const MANY_REQUESTS_TIMEOUT_MS = 10 * 60_000;

const HOSTILE = [
  "'",
  "''",
  '"',
  '`',
  "' OR 1=1--",
  "' OR '1'='1",
  '1 OR 1=1',
  '1; DROP TABLE blogs;--',
  "1' UNION SELECT password_hash, email FROM users--",
  'UNION SELECT * FROM users',
  '1 AND (SELECT COUNT(*) FROM sqlite_master) > 0',
  "'; ATTACH DATABASE '/tmp/x.db' AS x;--",
  '%',
  '%%',
  '_',
  '*',
  '\\',
  '"unterminated',
  'NEAR(',
  'NEAR(a b, 2)',
  'title:secret',
  '{title content}: x',
  '^start',
  'a AND OR NOT b',
  '-x',
  '( )',
  '\u0000',
  'a\u0000b',
  '1\u0000',
  '-1',
  '0',
  '-0',
  '00',
  '01',
  '+1',
  ' 1',
  '1 ',
  '1.5',
  '1e3',
  '0x10',
  '1_000',
  'NaN',
  'Infinity',
  '-Infinity',
  '9007199254740993',
  '99999999999999999999',
  '-99999999999999999999',
  '1'.repeat(400),
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
  '[object Object]',
  '../1',
  '1/../2',
  '\u202e1',
  '１',
  '😀',
  'x'.repeat(5000),
];

const q = encodeURIComponent;

function isJsonError(answer: WholeAnswer): boolean {
  if (!/^application\/json/.test(answer.headers.get('content-type') ?? '')) return false;
  const body = JSON.parse(answer.text) as Record<string, unknown>;
  return typeof body.error === 'string' && typeof body.message === 'string' && body.message !== '';
}

/** No 5xx, an answer at all, and an /api refusal carries the JSON error body. */
function expectHandled(answer: WholeAnswer, what: string, allowed: number[]): void {
  if (!allowed.includes(answer.status)) expect(answer.status, `${what}: ${answer.text.slice(0, 200)}`).toBeLessThan(500);
  expect(allowed, `${what} answered ${answer.status}: ${answer.text.slice(0, 200)}`).toContain(answer.status);
  // 431 comes from Node's own parser, before any route runs.
  if (what.includes('/api/') && answer.status >= 400 && answer.status !== 431)
    expect(isJsonError(answer), `${what}: JSON error body`).toBe(true);
}

const send = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
  fetchWhole(server, path, {
    method,
    headers: { ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}), ...headers },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });

function unchunk(text: string): string {
  let out = '';
  for (let at = 0; ; ) {
    const lineEnd = text.indexOf('\r\n', at);
    const size = parseInt(text.slice(at, lineEnd), 16);
    if (!size) return out;
    out += text.slice(lineEnd + 2, lineEnd + 2 + size);
    at = lineEnd + 2 + size + 2;
  }
}

/**
 * Sends a request over a bare socket and resolves with the answer's status line and headers as
 * soon as they arrive, even while the body is still being written: a server that refuses an
 * oversized body closes the connection, and the rest of the write then fails, as expected.
 */
function postEarly(path: string, headers: Record<string, string>, body: Buffer, method = 'POST'): Promise<WholeAnswer> {
  return new Promise((resolve, reject) => {
    const url = new URL(server.origin);
    const socket = net.connect(Number(url.port), url.hostname);
    let received = '';
    const finish = () => {
      const head = received.split('\r\n\r\n')[0]!;
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0);
      if (!status) return false;
      const responseHeaders = new Headers();
      for (const line of head.split('\r\n').slice(1)) {
        const at = line.indexOf(':');
        if (at > 0) responseHeaders.set(line.slice(0, at).trim(), line.slice(at + 1).trim());
      }
      socket.destroy();
      let text = received.slice(head.length + 4);
      if (/^chunked$/i.test(responseHeaders.get('transfer-encoding') ?? '')) text = unchunk(text);
      resolve({
        status,
        headers: responseHeaders,
        text: Buffer.from(text, 'latin1').toString('utf8'),
      });
      return true;
    };
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1');
      // The JSON error bodies are small: wait for the whole answer once the headers are in.
      const headEnd = received.indexOf('\r\n\r\n');
      if (headEnd === -1) return;
      const length = Number(/\r\ncontent-length: (\d+)/i.exec(received.slice(0, headEnd))?.[1] ?? -1);
      const complete = length >= 0 ? received.length - headEnd - 4 >= length : received.endsWith('\r\n0\r\n\r\n');
      if (complete) finish();
    });
    const giveUp = (error?: Error) => {
      if (!finish()) reject(error ?? new Error(`${path}: the connection closed without an answer`));
    };
    socket.on('error', giveUp);
    socket.on('close', () => giveUp());
    socket.setTimeout(NO_ANSWER_MS, () => socket.destroy(new Error(`${path}: no answer`)));
    const lines = Object.entries({ Host: url.host, ...headers, 'Content-Length': String(body.length) }).map(
      ([name, value]) => `${name}: ${value}`,
    );
    socket.write(`${method} ${path} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`);
    socket.write(body);
  });
}

beforeAll(async () => {
  server = await startServer({
    env: {
      RATE_LIMIT_COMMENT_IP: '100000',
      RATE_LIMIT_LOGIN_IP: '100000',
      RATE_LIMIT_LOGIN_ACCOUNT: '100000',
      RATE_LIMIT_REGISTER_IP: '100000',
    },
  });
  admin = await loginAsAdmin(server);
  const blogs = (await (await fetch(server.url('/api/blogs?limit=1'))).json()) as Array<{ id: number }>;
  const categories = (await (await fetch(server.url('/api/categories'))).json()) as Array<{ id: number }>;
  const slides = (await (await fetch(server.url('/api/carousel'))).json()) as Array<{ id: number }>;
  const comments = (await (await fetch(server.url('/api/blogs/comment?limit=1'), { headers: bearer(admin) })).json()) as Array<{
    id: number;
  }>;
  ids = { blog: blogs[0]!.id, category: categories[0]!.id, slide: slides[0]!.id, comment: comments[0]!.id };
});

afterAll(async () => {
  await server?.stop();
});

describe('hostile parameters change nothing', () => {
  let before: DataSnapshot;

  it('takes a snapshot of every table first', { timeout: MANY_REQUESTS_TIMEOUT_MS }, async () => {
    before = await snapshotData(server, admin.token);
    expect(countsOf(before).blogs).toBeGreaterThan(10);
    expect(countsOf(before).comments).toBeGreaterThan(10);
  });

  it('ids in every /api route that takes one, public and admin', { timeout: MANY_REQUESTS_TIMEOUT_MS }, async () => {
    const auth = bearer(admin);
    const blogBody = { title: 'Changed by an attack', content: '<p>x</p>', category_id: ids.category, isVideo: false };
    for (const value of HOSTILE) {
      const id = q(value);
      const tries: Array<[string, Promise<WholeAnswer>, number[]]> = [
        [`GET /api/blogs/${value}`, send('GET', `/api/blogs/${id}`), [400, 404]],
        // An id that decodes to several segments is no public route: writes there need an admin (401).
        [`PUT /api/blogs/${value}/click`, send('PUT', `/api/blogs/${id}/click`), [400, 401, 404]],
        [
          `POST /api/blogs/${value}/comment`,
          send('POST', `/api/blogs/${id}/comment`, { username: 'Eve', comment: 'Changed by an attack' }),
          [400, 401, 404],
        ],
        [`PUT /api/blogs/${value}`, send('PUT', `/api/blogs/${id}`, blogBody, auth), [400, 404]],
        [`DELETE /api/blogs/${value}`, send('DELETE', `/api/blogs/${id}`, undefined, auth), [400, 404]],
        [
          `PUT /api/categories/${value}`,
          send('PUT', `/api/categories/${id}`, { name: 'Changed by an attack', sequence: 1 }, auth),
          [400, 404],
        ],
        [`DELETE /api/categories/${value}`, send('DELETE', `/api/categories/${id}`, undefined, auth), [400, 404]],
        [`DELETE /api/carousel/${value}`, send('DELETE', `/api/carousel/${id}`, undefined, auth), [400, 404]],
        [`DELETE /api/blogs/comment/${value}`, send('DELETE', `/api/blogs/comment/${id}`, undefined, auth), [400, 404]],
      ];
      for (const [what, answer, allowed] of tries) expectHandled(await answer, what, allowed);
    }
  });

  it('query strings of the list routes', { timeout: MANY_REQUESTS_TIMEOUT_MS }, async () => {
    const auth = bearer(admin);
    for (const value of HOSTILE) {
      const v = q(value);
      const tries: Array<[string, Promise<WholeAnswer>]> = [
        [`/api/blogs?category=${value}`, send('GET', `/api/blogs?category=${v}`)],
        [`/api/blogs?search=${value}`, send('GET', `/api/blogs?search=${v}`)],
        [`/api/blogs?limit=${value}`, send('GET', `/api/blogs?limit=${v}`)],
        [`/api/blogs?offset=${value}`, send('GET', `/api/blogs?offset=${v}`)],
        [`/api/blogs?all=${value.repeat(4)}`, send('GET', `/api/blogs?category=${v}&search=${v}&limit=${v}&offset=${v}`)],
        [`/api/blogs?search[]=${value}`, send('GET', `/api/blogs?search=${v}&search=x&category=1&category=${v}`)],
        [`/api/blogs/comment?limit=${value}`, send('GET', `/api/blogs/comment?limit=${v}&offset=${v}`, undefined, auth)],
        [`/api/blogs/recent?${value}`, send('GET', `/api/blogs/recent?${v}=${v}`)],
        [`/api/blogs/top-viewed?${value}`, send('GET', `/api/blogs/top-viewed?limit=${v}`)],
        [`/api/categories?${value}`, send('GET', `/api/categories?sort=${v}`)],
        [`/api/carousel?${value}`, send('GET', `/api/carousel?id=${v}`)],
        [`/api/users/me?${value}`, send('GET', `/api/users/me?id=${v}`)],
      ];
      // Node refuses a request line past its 16 KB header limit itself (431), before any route.
      for (const [what, answer] of tries) expectHandled(await answer, what, what.length > 16_000 ? [200, 400, 431] : [200, 400]);
    }
    // A search built of operators and symbols finds nothing and never errors; words still match literally.
    for (const value of ['%', '_', '"', '*', '( )', '^', "'"]) {
      const answer = await send('GET', `/api/blogs?search=${q(value)}`);
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.text), value).toEqual([]);
    }
  });

  it('the public pages with the same values', { timeout: MANY_REQUESTS_TIMEOUT_MS }, async () => {
    for (const value of HOSTILE) {
      const v = q(value);
      for (const path of [
        `/blog/${v}`,
        `/blogs?category=${v}`,
        `/blogs?page=${v}`,
        `/blogs?search=${v}`,
        `/blogs?category=${v}&search=${v}&page=${v}`,
        `/?page=${v}`,
        `/download?page=${v}`,
      ]) {
        const answer = await send('GET', path);
        // A search that runs over its time on a busy machine is answered 503 "Search is busy": handled too.
        const searches = path.includes('search=');
        expectHandled(answer, path, searches ? [200, 400, 404, 503] : [200, 400, 404]);
        if (answer.status !== 503) expect(answer.headers.get('content-type'), path).toMatch(/^text\/html/);
      }
    }
  });

  it('credentials: hostile tokens, cookies, logins and sign-ups are refused', { timeout: MANY_REQUESTS_TIMEOUT_MS }, async () => {
    const headerSafe = HOSTILE.filter((value) => !/[\u0000-\u001f\u007f-\uffff]/.test(value)); // eslint-disable-line no-control-regex
    for (const value of headerSafe) {
      const asToken = await send('GET', '/api/users/me', undefined, { Authorization: `Bearer ${value}` });
      expectHandled(asToken, `Bearer ${value}`, [200, 401]);
      if (asToken.status === 200) expect(JSON.parse(asToken.text)).toEqual({ user: null });
      const asCookie = await send('GET', '/api/users/me', undefined, { Cookie: `session=${q(value)}` });
      expectHandled(asCookie, `Cookie ${value}`, [200, 401]);
      if (asCookie.status === 200) expect(JSON.parse(asCookie.text)).toEqual({ user: null });
      const adminWrite = await send(
        'POST',
        '/api/categories',
        { name: 'Changed by an attack', sequence: 1 },
        { Authorization: `Bearer ${value}` },
      );
      expectHandled(adminWrite, `admin write with Bearer ${value}`, [401]);
    }
    for (const value of HOSTILE) {
      expectHandled(await send('POST', '/api/users/login', { email: value, password: value }), `login ${value}`, [400, 401]);
      expectHandled(
        await send('POST', '/api/users/login', { email: `admin@test.local${value}`, password: "' OR 1=1--" }),
        `login admin+${value}`,
        [400, 401],
      );
      expectHandled(
        await send('POST', '/api/users/register', { username: value, email: value, password: value }),
        `register ${value}`,
        [400],
      );
    }
  });

  it('left every table exactly as it was', { timeout: MANY_REQUESTS_TIMEOUT_MS }, async () => {
    const after = await snapshotData(server, admin.token);
    expect(countsOf(after)).toEqual(countsOf(before));
    expect(after.api).toEqual(before.api);
    expect(after.tables).toEqual(before.tables);
  });
});

describe('hostile text in valid writes is stored and found literally', () => {
  const sqlTitle = "Robert'); DROP TABLE blogs;-- UNION SELECT zebraword";

  it('an article, a category and a comment keep their text exactly', { timeout: MANY_REQUESTS_TIMEOUT_MS }, async () => {
    const auth = bearer(admin);
    const category = await send('POST', '/api/categories', { name: "'; DROP TABLE categories;--", sequence: 77 }, auth);
    expect(category.status, category.text).toBe(201);
    const categoryId = (JSON.parse(category.text) as { id: number }).id;
    const listed = (JSON.parse((await send('GET', '/api/categories')).text) as Array<{ id: number; name: string }>).find(
      (c) => c.id === categoryId,
    );
    expect(listed?.name).toBe("'; DROP TABLE categories;--");

    const blog = await send(
      'POST',
      '/api/blogs',
      {
        title: sqlTitle,
        content: "<p>1 OR 1=1; SELECT * FROM users WHERE name LIKE '%'</p>",
        category_id: categoryId,
        isVideo: false,
      },
      auth,
    );
    expect(blog.status, blog.text).toBe(201);
    const created = JSON.parse(blog.text) as { id?: number; blog?: { id: number } };
    const blogId = created.id ?? created.blog!.id;
    const read = JSON.parse((await send('GET', `/api/blogs/${blogId}`)).text) as { title: string; content: string };
    expect(read.title).toBe(sqlTitle);
    expect(read.content).toContain("1 OR 1=1; SELECT * FROM users WHERE name LIKE '%'");

    const text = 'x\'); DELETE FROM comments; -- " UNION SELECT email, password_hash FROM users --';
    const comment = await send('POST', `/api/blogs/${blogId}/comment`, {
      username: 'O\'Brien "--',
      comment: text,
      contact: "' OR ''='",
    });
    expect(comment.status, comment.text).toBe(201);
    const withComments = JSON.parse((await send('GET', `/api/blogs/${blogId}`)).text) as {
      comments: Array<{ username: string; comment: string }>;
    };
    expect(withComments.comments).toEqual([expect.objectContaining({ username: 'O\'Brien "--', comment: text })]);
    // Every other comment is still there.
    expect(countsOf(await snapshotData(server, admin.token)).comments).toBeGreaterThan(10);

    // Found by its words, whatever punctuation surrounds the search.
    // Every word must match; operators and punctuation around them are only text.
    for (const search of [
      'zebraword',
      "') DROP zebraword --",
      '"zebraword"',
      'zebraword*',
      '^zebraword)(',
      'DROP TABLE zebraword',
      "robert'); union:zebraword",
    ]) {
      const found = JSON.parse((await send('GET', `/api/blogs?search=${q(search)}`)).text) as Array<{ id: number }>;
      expect(
        found.map((b) => b.id),
        search,
      ).toContain(blogId);
    }
    const notFound = JSON.parse((await send('GET', `/api/blogs?search=${q("zebraword' OR 1=1--")}`)).text) as Array<{
      id: number;
    }>;
    expect(notFound.length).toBeLessThanOrEqual(1);
  });

  it('extra and prototype keys in a sign-up body never make an admin', { timeout: MANY_REQUESTS_TIMEOUT_MS }, async () => {
    const body =
      '{"username":"protouser","email":"proto@example.test","password":"a-long-password-123","is_admin":1,"isAdmin":true,"__proto__":{"is_admin":1},"constructor":{"prototype":{"is_admin":1}}}';
    const answer = await send('POST', '/api/users/register', body);
    expect(answer.status, answer.text).toBe(201);
    const session = await login(server, 'proto@example.test', 'a-long-password-123');
    expect(session.isAdmin).toBe(false);
    const me = JSON.parse((await send('GET', '/api/users/me', undefined, bearer(session))).text) as {
      user: { is_admin: unknown };
    };
    expect(me.user.is_admin).toBeFalsy();
    expectHandled(
      await send('POST', '/api/categories', { name: 'proto', sequence: 1 }, bearer(session)),
      'POST /api/categories as proto user',
      [403],
    );
    // And the server's own objects were not polluted for anyone else.
    expect(({} as Record<string, unknown>).is_admin).toBeUndefined();
  });
});

describe('bad bodies on every write route', () => {
  let before: DataSnapshot;
  const deep = (depth: number) => `{"title":${'['.repeat(depth)}${']'.repeat(depth)}}`;
  const tenMb = `{"title":"${'a'.repeat(10 * 1024 * 1024)}"}`;

  function jsonRoutes(): Array<{ method: string; path: string; auth: Record<string, string> }> {
    const auth = bearer(admin);
    return [
      { method: 'POST', path: '/api/blogs', auth },
      { method: 'PUT', path: `/api/blogs/${ids.blog}`, auth },
      { method: 'POST', path: '/api/categories', auth },
      { method: 'PUT', path: `/api/categories/${ids.category}`, auth },
      { method: 'POST', path: `/api/blogs/${ids.blog}/comment`, auth: {} },
      { method: 'POST', path: '/api/users/register', auth: {} },
      { method: 'POST', path: '/api/users/login', auth: {} },
    ];
  }

  it('takes a snapshot first', { timeout: MANY_REQUESTS_TIMEOUT_MS }, async () => {
    before = await snapshotData(server, admin.token);
  });

  it(
    'invalid JSON, non-objects, wrong types, missing fields and deep nesting: 400',
    { timeout: MANY_REQUESTS_TIMEOUT_MS },
    async () => {
      const invalid = [
        '',
        '{',
        '}',
        '{"title":}',
        "{'title':'x'}",
        '{"title":"x",}',
        '{"title":"x"} trailing',
        'nul',
        '{"title":"\\x41"}',
        '\uFEFF{"title":"x"}',
        '{"a":1}{"b":2}',
        '[1,2',
        '"unterminated',
      ];
      const notObjects = ['null', '[]', '[{"title":"x"}]', '"text"', '123', 'true', '1e309'];
      const wrongTypes = [
        {
          title: 123,
          content: {},
          category_id: 'abc',
          isVideo: 'maybe',
          name: [],
          sequence: { a: 1 },
          username: false,
          comment: 42,
          contact: [],
          email: 7,
          password: null,
        },
        {
          title: ['x'],
          content: ['x'],
          category_id: [1],
          name: { x: 1 },
          sequence: '1e999',
          username: ['a'],
          comment: { text: 'x' },
          email: ['a@b.c'],
          password: ['p'],
        },
        {
          title: null,
          content: null,
          category_id: null,
          name: null,
          sequence: null,
          username: null,
          comment: null,
          email: null,
          password: null,
        },
        {
          title: true,
          category_id: -1,
          name: true,
          sequence: 1e308,
          username: 1,
          comment: true,
          email: true,
          password: 12345678,
        },
        {
          title: 'x'.repeat(10_001),
          category_id: 1e20,
          name: 'x'.repeat(10_001),
          sequence: -1e20,
          username: 'x'.repeat(10_001),
          comment: 'x'.repeat(10_001),
          email: 'x'.repeat(10_001),
          password: 'x'.repeat(10_001),
        },
      ];
      for (const route of jsonRoutes()) {
        const what = (label: string) => `${route.method} ${route.path} ${label}`;
        for (const body of invalid)
          expectHandled(await send(route.method, route.path, body, route.auth), what(`invalid JSON ${body.slice(0, 20)}`), [400]);
        for (const body of notObjects)
          expectHandled(await send(route.method, route.path, body, route.auth), what(`not an object ${body}`), [400]);
        // The last shape is 80 KB: past the 16 KB some routes take, so 413 there.
        for (const body of wrongTypes)
          expectHandled(
            await send(route.method, route.path, body, route.auth),
            what(`wrong types ${JSON.stringify(body).slice(0, 40)}`),
            [400, 401, 413],
          );
        const hugeNumbers =
          '{"title":"x","name":"x","category_id":99999999999999999999,"sequence":-99999999999999999999,"isVideo":1e400}';
        expectHandled(await send(route.method, route.path, hugeNumbers, route.auth), what('huge numbers'), [400, 401]);
        expectHandled(await send(route.method, route.path, {}, route.auth), what('missing fields'), [400]);
        expectHandled(await send(route.method, route.path, deep(5_000), route.auth), what('nested 5,000 deep'), [400]);
        // 200 KB of brackets: past the 16 KB some routes take (413), parsed and refused by the rest.
        expectHandled(await send(route.method, route.path, deep(100_000), route.auth), what('nested 100,000 deep'), [400, 413]);
      }
    },
  );

  it('wrong or missing content types: 415', { timeout: MANY_REQUESTS_TIMEOUT_MS }, async () => {
    for (const route of jsonRoutes()) {
      for (const type of [
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
        'application/xml',
        'application/jsonx',
        '',
      ]) {
        const answer = await fetchWhole(server, route.path, {
          method: route.method,
          headers: { ...route.auth, ...(type ? { 'Content-Type': type } : {}) },
          body: type === '' ? new Blob(['{"title":"x"}']) : '{"title":"x"}',
        });
        expectHandled(answer, `${route.method} ${route.path} as ${type || 'no type'}`, [415]);
      }
    }
  });

  it('10 MB bodies: 413, fast, on the JSON and the upload routes', { timeout: MANY_REQUESTS_TIMEOUT_MS }, async () => {
    for (const route of jsonRoutes()) {
      const answer = await postEarly(
        route.path,
        { ...route.auth, 'Content-Type': 'application/json' },
        Buffer.from(tenMb),
        route.method,
      );
      expectHandled(answer, `${route.method} ${route.path} 10 MB`, [413]);
    }
    // Through a bare socket that reads the answer as soon as it comes: a server that closed on
    // the unread body would reset the connection and the 413 would be lost (it drains instead).
    for (const [path, field, size] of [
      ['/api/carousel', 'image', 10 * 1024 * 1024],
      ['/api/blogs/upload-image-cloudinary', 'image', 10 * 1024 * 1024],
      // Past the PDF limit (20 MB), within the adapter's own (21 MB).
      ['/api/blogs/upload-pdf-local', 'pdfFile', 20.5 * 1024 * 1024],
    ] as const) {
      const boundary = 'bigboundary';
      const head = Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="big.bin"\r\nContent-Type: image/png\r\n\r\n`,
      );
      const body = Buffer.concat([head, Buffer.alloc(size), Buffer.from(`\r\n--${boundary}--\r\n`)]);
      const answer = await postEarly(
        path,
        { ...bearer(admin), 'Content-Type': `multipart/form-data; boundary=${boundary}` },
        body,
      );
      expectHandled(answer, `${path} ${size / 1024 / 1024} MB`, [413]);
    }
  });

  it('broken multipart bodies: 400 or 415', { timeout: MANY_REQUESTS_TIMEOUT_MS }, async () => {
    const bodies: Array<[string, string]> = [
      [
        'multipart/form-data; boundary=abc',
        '--abc\r\nContent-Disposition: form-data; name="image"; filename="x.png"\r\n\r\nnot closed',
      ],
      ['multipart/form-data; boundary=abc', '--zzz--\r\n'],
      ['multipart/form-data; boundary=abc', ''],
      ['multipart/form-data; boundary=', '--\r\n'],
      ['multipart/form-data', '--abc--'],
      ['application/json', '{"image":"x"}'],
    ];
    for (const path of ['/api/carousel', '/api/blogs/upload-image-cloudinary', '/api/blogs/upload-pdf-local']) {
      for (const [type, body] of bodies) {
        const answer = await fetchWhole(server, path, {
          method: 'POST',
          headers: { ...bearer(admin), 'Content-Type': type },
          body,
        });
        expectHandled(answer, `${path} ${type} ${JSON.stringify(body).slice(0, 30)}`, [400, 415]);
      }
    }
  });

  it(
    'a declared length far past the limit is refused before the body arrives',
    { timeout: MANY_REQUESTS_TIMEOUT_MS },
    async () => {
      const url = new URL(server.origin);
      for (const [path, type] of [
        ['/api/categories', 'application/json'],
        [`/api/blogs/${ids.blog}/comment`, 'application/json'],
        ['/api/carousel', 'multipart/form-data; boundary=abc'],
      ] as const) {
        // The body never comes: an answer at all shows it was refused up front (waiting for the
        // body would end in Node's 30 s request timeout, a 408, not a 413).
        const answer = await new Promise<string>((resolve, reject) => {
          const socket = net.connect(Number(url.port), url.hostname);
          let data = '';
          socket.on('data', (chunk) => {
            data += chunk.toString('latin1');
            if (data.includes('\r\n\r\n')) {
              socket.destroy();
              resolve(data);
            }
          });
          socket.on('error', reject);
          socket.setTimeout(2 * NO_ANSWER_MS, () => socket.destroy(new Error(`${path}: no answer while the body was still due`)));
          socket.write(
            `POST ${path} HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Bearer ${admin.token}\r\nContent-Type: ${type}\r\nContent-Length: ${50 * 1024 * 1024}\r\n\r\n{"na`,
          );
        });
        expect(answer, path).toMatch(/^HTTP\/1\.1 413 /);
      }
    },
  );

  it('left every table exactly as it was, and the server still answers', { timeout: MANY_REQUESTS_TIMEOUT_MS }, async () => {
    const after = await snapshotData(server, admin.token);
    expect(after.tables).toEqual(before.tables);
    expect(after.api).toEqual(before.api);
    expect((await fetchWhole(server, '/')).status).toBe(200);
  });
});
