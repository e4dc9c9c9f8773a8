import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type OpenedDatabase } from '../../src/server/db/client.ts';
import { insertBlog, type BlogWrite } from '../../src/server/db/repositories/blogs.ts';
import { insertCategory } from '../../src/server/db/repositories/categories.ts';
import { startServer, type TestServer } from '../support/server.ts';
import { bearer, loginAsAdmin } from '../support/auth.ts';
import { buildBlogWrite } from '../support/builders.ts';
import { call, expectError, sendJson, type Answer, type Json } from './http-support.ts';
import { until } from '../support/wait.ts';

/**
 * The public /api endpoints of docs/product.md#the-api against the real built server and a fresh
 * seeded database. Search fixtures are written straight into the server's SQLite file through the
 * repositories (the API reads SQLite on every request, so they are visible at once).
 */

let server: TestServer;
let fixtures: OpenedDatabase;
const ids = { titleHit: 0, bodyHit: 0, otherCategory: 0, categoryA: 0, categoryB: 0, firstCategory: 0 };

const BLOG_KEYS = [
  '_id',
  'author',
  'category_id',
  'category_name',
  'clicks',
  'content',
  'content_source',
  'created_at',
  'form_link',
  'form_name',
  'id',
  'image',
  'isVideo',
  'pay_link',
  'pdf_drive_link',
  'title',
  'updated_at',
  'video_link',
];

const get = (path: string, init: RequestInit = {}) => call(server, path, init);
const postJson = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  sendJson(server, 'POST', path, body, headers);
const expectJsonError = expectError;

function isIsoDate(value: unknown): boolean {
  return typeof value === 'string' && !Number.isNaN(Date.parse(value));
}

function expectBlogShape(blog: Json) {
  expect(Object.keys(blog).sort()).toEqual(BLOG_KEYS);
  expect(Number.isInteger(blog.id)).toBe(true);
  expect(blog._id).toBe(blog.id);
  expect(typeof blog.title).toBe('string');
  expect(typeof blog.author).toBe('string');
  expect(typeof blog.content).toBe('string');
  expect(['1', '0']).toContain(blog.isVideo);
  expect(isIsoDate(blog.created_at)).toBe(true);
  expect(isIsoDate(blog.updated_at)).toBe(true);
  expect(Number.isInteger(blog.clicks)).toBe(true);
  expect(blog.category_id === null || Number.isInteger(blog.category_id)).toBe(true);
  for (const key of [
    'content_source',
    'category_name',
    'image',
    'video_link',
    'pdf_drive_link',
    'pay_link',
    'form_name',
    'form_link',
  ]) {
    expect(blog[key] === null || typeof blog[key] === 'string', key).toBe(true);
  }
}

function fixtureBlog(title: string, text: string, categoryId: number | null): BlogWrite {
  return buildBlogWrite({ title, author: 'fixture', content: `<p>${text}</p>`, category_id: categoryId });
}

beforeAll(async () => {
  // Many comments come from one address here; the default limit is tested on its own server below.
  server = await startServer({ env: { RATE_LIMIT_COMMENT_IP: '1000' } });
  fixtures = openDatabase(server.databasePath);
  const db = fixtures.db;
  ids.categoryA = (await insertCategory(db, { name: 'Fixture Botany', sequence: 900 })).id;
  ids.categoryB = (await insertCategory(db, { name: 'Fixture Zoology', sequence: 900 })).id;
  ids.firstCategory = (await insertCategory(db, { name: 'Fixture First', sequence: -1 })).id;
  // The title hit is the oldest, so ranking (not date) must put it first.
  ids.titleHit = await insertBlog(
    db,
    fixtureBlog('Quillwort identification', 'Spores and leaves.', ids.categoryA),
    'Spores and leaves.',
    '2020-01-01T00:00:00.000Z',
  );
  ids.bodyHit = await insertBlog(
    db,
    fixtureBlog('Aquatic plants', 'The quillwort grows under water, unlike most ferns.', ids.categoryA),
    'The quillwort grows under water, unlike most ferns.',
    '2020-03-01T00:00:00.000Z',
  );
  ids.otherCategory = await insertBlog(
    db,
    fixtureBlog('Pond animals', 'Snails graze on quillwort beds.', ids.categoryB),
    'Snails graze on quillwort beds.',
    '2020-02-01T00:00:00.000Z',
  );
});

afterAll(async () => {
  fixtures?.sqlite.close();
  await server?.stop();
});

describe('GET /api/carousel', () => {
  it('lists the slides as {id, title, image_url, altText}', async () => {
    const { status, headers, body } = await get('/api/carousel');
    expect(status).toBe(200);
    expect(headers.get('content-type')).toMatch(/^application\/json/);
    const slides = body as Json[];
    expect(slides.length).toBeGreaterThanOrEqual(3);
    for (const slide of slides) {
      expect(Object.keys(slide).sort()).toEqual(['altText', 'id', 'image_url', 'title']);
      expect(Number.isInteger(slide.id)).toBe(true);
      expect(typeof slide.title).toBe('string');
      expect(typeof slide.image_url).toBe('string');
      expect(typeof slide.altText).toBe('string');
    }
  });
});

describe('GET /api/categories', () => {
  it('lists {id, name, sequence} by sequence, then id', async () => {
    const { status, body } = await get('/api/categories');
    expect(status).toBe(200);
    const categories = body as Array<{ id: number; name: string; sequence: number }>;
    for (const category of categories) {
      expect(Object.keys(category).sort()).toEqual(['id', 'name', 'sequence']);
      expect(typeof category.name).toBe('string');
      expect(Number.isInteger(category.sequence)).toBe(true);
    }
    const sorted = [...categories].sort((a, b) => a.sequence - b.sequence || a.id - b.id);
    expect(categories.map((c) => c.id)).toEqual(sorted.map((c) => c.id));
    expect(categories[0]!.id).toBe(ids.firstCategory);
    const tied = categories.filter((c) => c.id === ids.categoryA || c.id === ids.categoryB).map((c) => c.id);
    expect(tied).toEqual([ids.categoryA, ids.categoryB]);
  });
});

describe('GET /api/blogs/top-viewed', () => {
  it('gives at most 17 {id, title, created_at, clicks}, most clicks first', async () => {
    const { status, body } = await get('/api/blogs/top-viewed');
    expect(status).toBe(200);
    const rows = body as Array<{ id: number; title: string; created_at: string; clicks: number }>;
    // The demo content has more than 17 articles, so the list is full.
    expect(rows).toHaveLength(17);
    for (const row of rows) {
      expect(Object.keys(row).sort()).toEqual(['clicks', 'created_at', 'id', 'title']);
      expect(Number.isInteger(row.id)).toBe(true);
      expect(typeof row.title).toBe('string');
      expect(isIsoDate(row.created_at)).toBe(true);
      expect(Number.isInteger(row.clicks)).toBe(true);
    }
    for (let i = 1; i < rows.length; i++) expect(rows[i - 1]!.clicks).toBeGreaterThanOrEqual(rows[i]!.clicks);
  });
});

describe('GET /api/blogs/recent', () => {
  it('gives {id, title, image, category_name}, newest first', async () => {
    const { status, body } = await get('/api/blogs/recent');
    expect(status).toBe(200);
    const rows = body as Json[];
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(Object.keys(row).sort()).toEqual(['category_name', 'id', 'image', 'title']);
      expect(row.image === null || typeof row.image === 'string').toBe(true);
      expect(row.category_name === null || typeof row.category_name === 'string').toBe(true);
    }
    const all = (await get(`/api/blogs?limit=${rows.length}`)).body as Json[];
    expect(rows.map((r) => r.id)).toEqual(all.map((b) => b.id));
  });
});

describe('GET /api/blogs', () => {
  it('lists full blogs newest first, 50 by default, with X-Total-Count', async () => {
    const { status, headers, body } = await get('/api/blogs');
    expect(status).toBe(200);
    const blogs = body as Json[];
    const total = Number(headers.get('x-total-count'));
    const inDb = await fixtures.db
      .selectFrom('blogs')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(total).toBe(Number(inDb.n));
    expect(blogs).toHaveLength(Math.min(50, total));
    blogs.forEach(expectBlogShape);
    for (let i = 1; i < blogs.length; i++) {
      expect(Date.parse(blogs[i - 1]!.created_at as string)).toBeGreaterThanOrEqual(Date.parse(blogs[i]!.created_at as string));
    }
    // Demo content has video posts and others.
    expect(new Set(blogs.map((b) => b.isVideo))).toEqual(new Set(['1', '0']));
  });

  it('pages with limit and offset, the total staying the same', async () => {
    const whole = await get('/api/blogs?limit=200');
    const page = await get('/api/blogs?limit=5&offset=5');
    expect(page.status).toBe(200);
    expect((page.body as Json[]).map((b) => b.id)).toEqual((whole.body as Json[]).slice(5, 10).map((b) => b.id));
    expect(page.headers.get('x-total-count')).toBe(whole.headers.get('x-total-count'));
    const beyond = await get('/api/blogs?offset=100000');
    expect(beyond.body).toEqual([]);
    expect(beyond.headers.get('x-total-count')).toBe(whole.headers.get('x-total-count'));
  });

  it.each([
    ['category=abc'],
    ['category=0'],
    ['category=-1'],
    ['category=1e3'],
    ['category=1%20OR%201%3D1'],
    ['limit=0'],
    ['limit=201'],
    ['limit=abc'],
    ['limit=-1'],
    ['offset=-1'],
    ['offset=1.5'],
  ])('answers 400 JSON for ?%s', async (query) => {
    expectJsonError(await get(`/api/blogs?${query}`), 400, 'invalid_input');
  });

  it('filters by category', async () => {
    const { body, headers } = await get(`/api/blogs?category=${ids.categoryA}`);
    expect((body as Json[]).map((b) => b.id)).toEqual([ids.bodyHit, ids.titleHit]);
    expect(headers.get('x-total-count')).toBe('2');
    for (const blog of body as Json[]) expect(blog.category_name).toBe('Fixture Botany');
  });

  it('gives an empty list for a category that does not exist', async () => {
    const { status, body, headers } = await get('/api/blogs?category=999999');
    expect(status).toBe(200);
    expect(body).toEqual([]);
    expect(headers.get('x-total-count')).toBe('0');
  });

  it('ignores a blank search', async () => {
    const plain = await get('/api/blogs?limit=10');
    const blank = await get('/api/blogs?limit=10&search=%20%20%09');
    expect(blank.status).toBe(200);
    expect((blank.body as Json[]).map((b) => b.id)).toEqual((plain.body as Json[]).map((b) => b.id));
    expect(blank.headers.get('x-total-count')).toBe(plain.headers.get('x-total-count'));
  });
});

describe('search', () => {
  it('finds every article with the word, the title match first', async () => {
    const { status, body, headers } = await get('/api/blogs?search=quillwort');
    expect(status).toBe(200);
    const found = (body as Json[]).map((b) => b.id);
    expect(found).toHaveLength(3);
    expect(found[0]).toBe(ids.titleHit);
    expect(found.sort()).toEqual([ids.titleHit, ids.bodyHit, ids.otherCategory].sort());
    expect(headers.get('x-total-count')).toBe('3');
    (body as Json[]).forEach(expectBlogShape);
  });

  it('matches a word prefix, any case', async () => {
    const { body } = await get('/api/blogs?search=QUILLW');
    expect((body as Json[]).map((b) => b.id).sort()).toEqual([ids.titleHit, ids.bodyHit, ids.otherCategory].sort());
  });

  it('needs every word', async () => {
    const { body } = await get('/api/blogs?search=quillwort%20snails');
    expect((body as Json[]).map((b) => b.id)).toEqual([ids.otherCategory]);
  });

  it('combines with a category', async () => {
    const { body, headers } = await get(`/api/blogs?category=${ids.categoryB}&search=quillwort`);
    expect((body as Json[]).map((b) => b.id)).toEqual([ids.otherCategory]);
    expect(headers.get('x-total-count')).toBe('1');
    const none = await get(`/api/blogs?category=${ids.categoryB}&search=spores`);
    expect(none.body).toEqual([]);
  });

  it('finds the seeded articles too', async () => {
    const { body } = await get('/api/blogs?search=photosynthesis');
    expect((body as Json[]).some((b) => b.title === 'How Photosynthesis Works')).toBe(true);
  });

  it.each([
    ['"'],
    ['"quillwort'],
    ["' OR 1=1--"],
    ['1 UNION SELECT password_hash FROM users'],
    ['NEAR('],
    ['NEAR(quillwort spores, 2)'],
    ['quillwort AND OR NOT'],
    ['('],
    [')'],
    ['*'],
    ['^'],
    [':'],
    ['title:quillwort'],
    ['%'],
    ['_'],
    ['\\'],
    ['\u0000'],
    ['😀'],
    ['<script>alert(1)</script>'],
    ['x'.repeat(10_000)],
  ])('answers 200 for the hostile search %j', async (text) => {
    const { status, body, headers } = await get(`/api/blogs?search=${encodeURIComponent(text)}`);
    expect(status).toBe(200);
    expect(Array.isArray(body)).toBe(true);
    expect(Number(headers.get('x-total-count'))).toBe((body as Json[]).length);
  });

  it('treats % and _ literally rather than as wildcards', async () => {
    for (const text of ['%', '_', '%_%', '__']) {
      const { body } = await get(`/api/blogs?search=${encodeURIComponent(text)}`);
      expect(body).toEqual([]);
    }
  });

  it('still finds the word next to operator syntax', async () => {
    const { body } = await get(`/api/blogs?search=${encodeURIComponent('"quillwort" AND (snails')}`);
    // "and" is an ordinary word here: it must also appear, and it does not in this article.
    expect(body).toEqual([]);
    const near = await get(`/api/blogs?search=${encodeURIComponent('quillwort* snails^')}`);
    expect((near.body as Json[]).map((b) => b.id)).toEqual([ids.otherCategory]);
  });
});

describe('GET /api/blogs/:id', () => {
  it('gives the blog with its comments', async () => {
    const list = (await get('/api/blogs?limit=200')).body as Json[];
    const withComments = await fixtures.db.selectFrom('comments').select('blog_id').orderBy('id').executeTakeFirstOrThrow();
    const { status, body } = await get(`/api/blogs/${withComments.blog_id}`);
    expect(status).toBe(200);
    const blog = body as Json;
    const { comments, ...rest } = blog;
    expectBlogShape(rest);
    expect(rest).toEqual(list.find((b) => b.id === withComments.blog_id));
    const rows = comments as Json[];
    expect(rows.length).toBeGreaterThan(0);
    for (const comment of rows) {
      expect(Object.keys(comment).sort()).toEqual(['comment', 'created_at', 'id', 'username']);
      expect(Number.isInteger(comment.id)).toBe(true);
      expect(typeof comment.username).toBe('string');
      expect(typeof comment.comment).toBe('string');
      expect(isIsoDate(comment.created_at)).toBe(true);
    }
  });

  it('gives an empty comment list for a blog without comments', async () => {
    const { body } = await get(`/api/blogs/${ids.titleHit}`);
    expect((body as Json).comments).toEqual([]);
  });

  it.each([['0'], ['-1'], ['1e3'], ['1%20OR%201%3D1'], ['12345678901234567890'], ['abc'], ['1.5'], ['%27%20OR%201%3D1--']])(
    'answers 400 or 404 JSON for the id %s',
    async (id) => {
      const result = await get(`/api/blogs/${id}`);
      expect([400, 404]).toContain(result.status);
      expectJsonError(result, result.status);
    },
  );

  it('answers 404 JSON for an unknown blog', async () => {
    expectJsonError(await get('/api/blogs/999999'), 404, 'not_found');
  });
});

describe('PUT /api/blogs/:id/click', () => {
  const clicksOf = async (id: number) => ((await get(`/api/blogs/${id}`)).body as Json).clicks as number;
  /** Views are written in batches (about once a second): wait for the count to move. */
  const clicksAfterWrite = (id: number, before: number) =>
    until(
      () => clicksOf(id),
      (now) => now !== before,
      `the clicks of article ${id} to move from ${before}`,
    );

  it('answers 204 and raises the count by exactly 1', async () => {
    const before = await clicksOf(ids.bodyHit);
    const response = await fetch(server.url(`/api/blogs/${ids.bodyHit}/click`), { method: 'PUT' });
    expect(response.status).toBe(204);
    expect(await response.text()).toBe('');
    expect(await clicksAfterWrite(ids.bodyHit, before)).toBe(before + 1);
  });

  it('counts many simultaneous clicks from one address as one view, each answered 204', async () => {
    const before = await clicksOf(ids.otherCategory);
    const statuses = await Promise.all(
      Array.from({ length: 10 }, () =>
        fetch(server.url(`/api/blogs/${ids.otherCategory}/click`), { method: 'PUT' }).then((r) => r.status),
      ),
    );
    expect(statuses).toEqual(Array(10).fill(204));
    expect(await clicksAfterWrite(ids.otherCategory, before)).toBe(before + 1);
  });

  it('answers 404 for an unknown blog and 400 for a bad id', async () => {
    expectJsonError(await get('/api/blogs/999999/click', { method: 'PUT' }), 404, 'not_found');
    expectJsonError(await get('/api/blogs/1e3/click', { method: 'PUT' }), 400, 'invalid_input');
  });
});

describe('POST /api/blogs/:id/comment', () => {
  it('answers 201 with the comment, which then shows on the blog', async () => {
    const { status, body } = await postJson(`/api/blogs/${ids.titleHit}/comment`, {
      username: '  Asha  ',
      comment: 'Very clear,\nthank you!',
      contact: 'asha@example.org',
    });
    expect(status).toBe(201);
    const comment = body as Json;
    expect(Object.keys(comment).sort()).toEqual(['comment', 'created_at', 'id', 'live_ms', 'username']);
    expect(comment).toMatchObject({ username: 'Asha', comment: 'Very clear,\nthank you!' });
    expect(Number.isInteger(comment.id)).toBe(true);
    expect(isIsoDate(comment.created_at)).toBe(true);
    expect(typeof comment.live_ms).toBe('number');

    const blog = (await get(`/api/blogs/${ids.titleHit}`)).body as { comments: Json[] };
    const { live_ms: _live, ...shown } = comment;
    expect(blog.comments.at(-1)).toEqual(shown);
  });

  it('keeps HTML as plain text and strips control characters', async () => {
    const text = '<img src=x onerror=alert(1)> <b>bold</b>\u0000\u0007';
    const { status, body } = await postJson(`/api/blogs/${ids.titleHit}/comment`, {
      username: '<i>Ben</i>',
      comment: text,
      contact: '',
    });
    expect(status).toBe(201);
    expect(body).toMatchObject({ username: '<i>Ben</i>', comment: '<img src=x onerror=alert(1)> <b>bold</b>' });
  });

  it.each([
    [{ comment: 'x', contact: 'c' }, 'username'],
    [{ username: 'A', contact: 'c' }, 'comment'],
    [{ username: '   ', comment: 'x' }, 'username'],
    [{ username: 'A', comment: ' \n\t ' }, 'comment'],
    [{ username: 'A'.repeat(61), comment: 'x' }, 'username'],
    [{ username: 'A', comment: 'x'.repeat(5001) }, 'comment'],
    [{ username: 'A', comment: 'x', contact: 'c'.repeat(201) }, 'contact'],
    [{ username: 42, comment: 'x' }, 'username'],
    [{ username: 'A', comment: { html: '<b>' } }, 'comment'],
  ])('answers 400 invalid_input for %j', async (payload, field) => {
    const result = await postJson(`/api/blogs/${ids.titleHit}/comment`, payload);
    expectJsonError(result, 400, 'invalid_input');
    expect(Object.keys((result.body as { fields: Json }).fields)).toContain(field);
  });

  it('accepts a comment of exactly 5000 characters', async () => {
    const { status } = await postJson(`/api/blogs/${ids.titleHit}/comment`, {
      username: 'A',
      comment: 'é'.repeat(5000),
      contact: 'c',
    });
    expect(status).toBe(201);
  });

  it.each([['[]'], ['null'], ['"text"'], ['42']])('answers 400 for the JSON body %s', async (raw) => {
    const result = await get(`/api/blogs/${ids.titleHit}/comment`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: raw,
    });
    expectJsonError(result, 400, 'invalid_input');
  });

  it('answers 400 for invalid JSON', async () => {
    const result = await get(`/api/blogs/${ids.titleHit}/comment`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"username": "A", "comment": ',
    });
    expectJsonError(result, 400, 'invalid_json');
  });

  it('answers 415 for another content type', async () => {
    const form = await get(`/api/blogs/${ids.titleHit}/comment`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'username=A&comment=B',
    });
    expectJsonError(form, 415, 'unsupported_type');
    const text = await get(`/api/blogs/${ids.titleHit}/comment`, {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain' },
      body: '{}',
    });
    expectJsonError(text, 415, 'unsupported_type');
  });

  // Raw requests on their own connection: the server answers before reading the whole body, so
  // the connection is not reusable afterwards and must not go back to fetch's shared pool.
  function postRaw(path: string, headers: Record<string, string>, write: (req: http.ClientRequest) => void) {
    return new Promise<Answer>((resolve, reject) => {
      const req = http.request(server.url(path), { method: 'POST', agent: false, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const h = new Headers();
          for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') h.set(k, v);
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({
            status: res.statusCode ?? 0,
            headers: h,
            body: h.get('content-type')?.startsWith('application/json') ? JSON.parse(text) : text,
            text,
          });
        });
      });
      // The server may reset the connection while the body is still being sent, and the write
      // error can surface before the answer that preceded it has been parsed: only once the
      // connection is closed can no answer come (a settled promise ignores the later reject).
      req.on('error', (error) => req.once('close', () => reject(error)));
      write(req);
    });
  }

  it('answers 413 for a 2 MB body', async () => {
    const big = JSON.stringify({ username: 'A', comment: 'x'.repeat(2 * 1024 * 1024) });
    const result = await postRaw(
      `/api/blogs/${ids.titleHit}/comment`,
      { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(big)) },
      (req) => req.end(big),
    );
    expectJsonError(result, 413, 'too_large');
  });

  it('refuses a 2 MB body sent in chunks without a length, storing nothing', async () => {
    const count = async () =>
      Number(
        (
          await fixtures.db
            .selectFrom('comments')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    const outcome = await postRaw(
      `/api/blogs/${ids.titleHit}/comment`,
      { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' },
      (req) => {
        req.write('{"username":"A","comment":"');
        const chunk = 'x'.repeat(64 * 1024);
        let sent = 0;
        const pump = () => {
          while (sent < 2 * 1024 * 1024) {
            if (req.destroyed) return;
            sent += chunk.length;
            if (!req.write(chunk)) return void req.once('drain', pump);
          }
          req.end('"}');
        };
        pump();
      },
    ).catch((error: NodeJS.ErrnoException) => error);
    // The server stops reading at the limit and answers 413, then drops the connection, so the
    // answer does not always reach the client (readJsonObject could drain the rest instead; see
    // the report to the lead). A reset connection is accepted here, any other outcome is not.
    if (outcome instanceof Error) expect(['EPIPE', 'ECONNRESET']).toContain(outcome.code);
    else expectJsonError(outcome, 413, 'too_large');
    expect(await count()).toBe(before);
    expect((await get('/api/categories')).status).toBe(200);
  });

  it('answers 404 for an unknown blog and 400 for a bad id', async () => {
    expectJsonError(await postJson('/api/blogs/999999/comment', { username: 'A', comment: 'B' }), 404, 'not_found');
    expectJsonError(await postJson('/api/blogs/-1/comment', { username: 'A', comment: 'B' }), 400, 'invalid_input');
  });
});

describe('methods', () => {
  it.each([
    ['GET', '/api/blogs/1/click'],
    ['GET', '/api/blogs/1/comment'],
    ['OPTIONS', '/api/carousel'],
    ['OPTIONS', '/api/blogs/top-viewed'],
  ])('answers 405 JSON for %s %s', async (method, path) => {
    expectJsonError(await get(path, { method }), 405, 'method_not_allowed');
  });

  it.each([
    ['PATCH', '/api/blogs/top-viewed'],
    ['DELETE', '/api/blogs/recent'],
    ['POST', '/api/blogs/1/click'],
    ['PUT', '/api/blogs/1/comment'],
    ['PATCH', '/api/categories'],
    ['PATCH', '/api/carousel'],
    ['PATCH', '/api/blogs'],
    ['PATCH', '/api/blogs/1'],
  ])('answers 405 JSON for %s %s, even for an admin', async (method, path) => {
    const admin = await loginAsAdmin(server);
    expectJsonError(await get(path, { method, headers: bearer(admin) }), 405, 'method_not_allowed');
  });

  it('refuses a wrong unsafe method from a visitor with a JSON error', async () => {
    for (const [method, path] of [
      ['DELETE', '/api/blogs/top-viewed'],
      ['POST', '/api/blogs/1/click'],
    ] as const) {
      const result = await get(path, { method });
      expect([401, 405]).toContain(result.status);
      expectJsonError(result, result.status);
    }
  });

  it.each([
    ['/api/carousel'],
    ['/api/categories'],
    ['/api/blogs'],
    ['/api/blogs/top-viewed'],
    ['/api/blogs/recent'],
    ['/api/blogs/1'],
  ])('answers HEAD %s like GET without a body', async (path) => {
    const response = await fetch(server.url(path), { method: 'HEAD' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.text()).toBe('');
  });
});

describe('comment rate limit (its own server, default limits)', () => {
  let limited: TestServer;

  beforeAll(async () => {
    limited = await startServer({ env: { RATE_LIMIT_COMMENT_IP: '5' } });
  });

  afterAll(async () => {
    await limited?.stop();
  });

  it('allows 5 comments per address in 10 minutes, then answers 429 with Retry-After', async () => {
    const post = (body: unknown) =>
      fetch(limited.url('/api/blogs/1/comment'), {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
    // Invalid posts do not count against the limit.
    for (let i = 0; i < 3; i++) expect((await post({ username: ' ', comment: '' })).status).toBe(400);
    const firstCountedAt = Date.now();
    for (let i = 0; i < 5; i++)
      expect((await post({ username: 'Burst', comment: `comment ${i}`, contact: 'c' })).status).toBe(201);
    const refused = await post({ username: 'Burst', comment: 'one too many', contact: 'c' });
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(Number.isInteger(retryAfter)).toBe(true);
    // Until the first counted comment is 10 minutes old: however long the posts took here.
    const elapsedSeconds = Math.ceil((Date.now() - firstCountedAt) / 1000);
    expect(retryAfter).toBeGreaterThanOrEqual(600 - elapsedSeconds - 1);
    expect(retryAfter).toBeLessThanOrEqual(600);
    expect(refused.headers.get('content-type')).toMatch(/^application\/json/);
    const body = (await refused.json()) as Json;
    expect(body.error).toBe('rate_limited');
    expect(typeof body.message).toBe('string');

    const blog = (await (await fetch(limited.url('/api/blogs/1'))).json()) as { comments: Json[] };
    expect(blog.comments.filter((c) => c.username === 'Burst')).toHaveLength(5);
  });
});
