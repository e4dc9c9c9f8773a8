import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server.ts';
import { until } from '../support/wait.ts';
import { bearer, loginAsAdmin, loginAsNewUser, type Session } from '../support/auth.ts';
import { BLOG_MESSAGES } from '../../src/shared/validation/blog.ts';
import { CATEGORY_MESSAGES } from '../../src/shared/validation/category.ts';
import { CAROUSEL_MESSAGES } from '../../src/shared/validation/carousel.ts';
import { UPLOAD_MESSAGES } from '../../src/shared/validation/uploads.ts';
import { makePdf, makePng } from '../support/files.ts';
import { buildBlogBody, buildCategory, uniqueName } from '../support/builders.ts';
import { call, expectError, page, sendForm, sendJson, uploadPdf, type Answer, type Json } from './http-support.ts';

/**
 * The admin write API (docs/product.md#the-api) against the real built server: every change must be
 * visible through the API and on the public pages when its call answers, every docs/product.md#validation-rules
 * rule answers 400 with its field message, and nobody but an admin gets in.
 */

let server: TestServer;
let admin: Session;
let reader: Session;
let auth: Record<string, string>;
let categories: Array<{ id: number; name: string; sequence: number }>;

beforeAll(async () => {
  server = await startServer({ env: { RATE_LIMIT_COMMENT_IP: '100' } });
  admin = await loginAsAdmin(server);
  reader = await loginAsNewUser(server);
  auth = bearer(admin);
  categories = (await call(server, '/api/categories')).body as typeof categories;
});

afterAll(async () => {
  await server?.stop();
});

const post = (path: string, body: unknown, headers = auth) => sendJson(server, 'POST', path, body, headers);
const put = (path: string, body: unknown, headers = auth) => sendJson(server, 'PUT', path, body, headers);
const del = (path: string, headers = auth) => call(server, path, { method: 'DELETE', headers });

const validBlog = (overrides: Json = {}) => buildBlogBody(categories[0]!.id, overrides);

async function createBlog(overrides: Json = {}): Promise<Json> {
  const answer = await post('/api/blogs', validBlog(overrides));
  expect(answer.status, answer.text).toBe(201);
  return answer.body as Json;
}

async function totalBlogs(): Promise<number> {
  const answer = await call(server, '/api/blogs?limit=1');
  return Number(answer.headers.get('x-total-count'));
}

function expectLiveMs(body: Json) {
  expect(typeof body.live_ms).toBe('number');
  expect(body.live_ms as number).toBeGreaterThanOrEqual(0);
}

describe('access: deny by default', () => {
  const routes: Array<{ method: string; path: string; body?: 'json' | 'form' }> = [
    { method: 'POST', path: '/api/blogs', body: 'json' },
    { method: 'PUT', path: '/api/blogs/1', body: 'json' },
    { method: 'DELETE', path: '/api/blogs/1' },
    { method: 'POST', path: '/api/blogs/upload-image-cloudinary', body: 'form' },
    { method: 'POST', path: '/api/blogs/upload-pdf-local', body: 'form' },
    { method: 'GET', path: '/api/blogs/comment' },
    { method: 'DELETE', path: '/api/blogs/comment/1' },
    { method: 'POST', path: '/api/categories', body: 'json' },
    { method: 'PUT', path: '/api/categories/1', body: 'json' },
    { method: 'DELETE', path: '/api/categories/1' },
    { method: 'POST', path: '/api/carousel', body: 'form' },
    { method: 'DELETE', path: '/api/carousel/1' },
  ];

  async function attempt(route: (typeof routes)[number], headers: Record<string, string>): Promise<Answer> {
    if (route.body === 'json')
      return sendJson(server, route.method, route.path, { title: 'x', name: 'Intruder', category_id: 1 }, headers);
    if (route.body === 'form') {
      const png = await makePng(8, 8);
      return sendForm(
        server,
        route.path,
        {
          title: 'Intruder',
          image: { data: png, name: 'a.png', type: 'image/png' },
          pdfFile: { data: makePdf(), name: 'a.pdf' },
        },
        headers,
      );
    }
    return call(server, route.path, { method: route.method, headers });
  }

  it('answers 401 without a token and 403 for a reader, and changes nothing', async () => {
    const before = {
      blogs: await totalBlogs(),
      blog1: (await call(server, '/api/blogs/1')).text,
      categories: (await call(server, '/api/categories')).text,
      slides: (await call(server, '/api/carousel')).text,
    };
    for (const route of routes) {
      expectError(await attempt(route, {}), 401, 'not_logged_in');
      expectError(await attempt(route, bearer(reader)), 403, 'forbidden');
      expectError(await attempt(route, { Authorization: 'Bearer not-a-real-token' }), 401, 'not_logged_in');
    }
    expect(await totalBlogs()).toBe(before.blogs);
    expect((await call(server, '/api/blogs/1')).text).toBe(before.blog1);
    expect((await call(server, '/api/categories')).text).toBe(before.categories);
    expect((await call(server, '/api/carousel')).text).toBe(before.slides);
  });

  it('takes the admin cookie only from the site itself', async () => {
    const name = `Cookie category ${Date.now()}`;
    const cookieOnly = { Cookie: admin.cookie };
    expectError(await post('/api/categories', { name, sequence: 1 }, { ...cookieOnly, Origin: 'https://evil.example' }), 403);
    const ok = await post('/api/categories', { name, sequence: 1 }, { ...cookieOnly, Origin: server.origin });
    expect(ok.status, ok.text).toBe(201);
    expect((await del(`/api/categories/${(ok.body as Json).id}`, { ...cookieOnly, Origin: server.origin })).status).toBe(200);
  });
});

describe('methods', () => {
  it('answers 405 with Allow for methods a route does not take', async () => {
    const cases: Array<[string, string, string]> = [
      ['GET', '/api/blogs/upload-image-cloudinary', 'POST'],
      ['GET', '/api/blogs/upload-pdf-local', 'POST'],
      ['POST', '/api/blogs/comment', 'GET'],
      ['PUT', '/api/blogs/comment/1', 'DELETE'],
      ['PATCH', '/api/categories/1', 'PUT, DELETE'],
      ['PUT', '/api/carousel/1', 'DELETE'],
      ['PATCH', '/api/blogs/1', 'GET, HEAD, PUT, DELETE'],
      ['PUT', '/api/blogs', 'GET, HEAD, POST'],
    ];
    for (const [method, path, allow] of cases) {
      const answer = await call(server, path, { method, headers: auth });
      expectError(answer, 405, 'method_not_allowed');
      expect(answer.headers.get('allow'), `${method} ${path}`).toBe(allow);
    }
  });
});

describe('blogs: create, update, delete', () => {
  it('creates an article that is live on the API, its page, the home page and /download', async () => {
    const pdf = await uploadPdf(
      server,
      { data: makePdf('Round trip'), name: 'Round trip notes.pdf', type: 'application/pdf' },
      auth,
    );
    expect(pdf.status, pdf.text).toBe(201);
    const pdfLink = (pdf.body as Json).link as string;

    const input = validBlog({
      pdf_link: pdfLink,
      payment_link: 'https://pay.example.com/checkout?id=7',
      image: 'https://images.example.com/cover.png',
      form_name: 'Register for the class',
      form_link: 'https://forms.example.com/f/abc',
    });
    const created = await post('/api/blogs', input);
    expect(created.status, created.text).toBe(201);
    const blog = created.body as Json;
    expectLiveMs(blog);
    expect(blog).toMatchObject({
      title: input.title,
      author: admin.username,
      category_id: categories[0]!.id,
      category_name: categories[0]!.name,
      image: 'https://images.example.com/cover.png',
      pdf_drive_link: pdfLink,
      pay_link: 'https://pay.example.com/checkout?id=7',
      form_name: 'Register for the class',
      form_link: 'https://forms.example.com/f/abc',
      isVideo: '0',
      video_link: null,
      content_source: 'Body text with **bold**.',
      clicks: 0,
    });
    expect(blog._id).toBe(blog.id);

    const fetched = await call(server, `/api/blogs/${blog.id}`);
    expect(fetched.status).toBe(200);
    expect(fetched.body).toMatchObject({
      id: blog.id,
      title: input.title,
      content: blog.content,
      pdf_drive_link: pdfLink,
      comments: [],
    });

    const article = await page(server, `/blog/${blog.id}`);
    expect(article.status).toBe(200);
    expect(article.html).toContain(input.title as string);
    expect((await page(server, '/')).html).toContain(input.title as string);
    expect((await page(server, '/download')).html).toContain(input.title as string);
    // The full-text row was written with the blog: the search finds it by a word of its body.
    const search = await call(server, `/api/blogs?search=${encodeURIComponent(input.title as string)}`);
    expect((search.body as Json[]).map((b) => b.id)).toContain(blog.id);
  });

  it('stores isVideo in every accepted spelling and keeps the video link only on video posts', async () => {
    for (const isVideo of ['1', true, 1]) {
      const blog = await createBlog({ isVideo, video_link: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ' });
      expect(blog.isVideo).toBe('1');
      expect(blog.video_link).toBe('https://www.youtube.com/watch?v=dQw4w9WgXcQ');
    }
    for (const isVideo of ['0', false, 0, undefined]) {
      const blog = await createBlog({ isVideo, video_link: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ' });
      expect(blog.isVideo).toBe('0');
      expect(blog.video_link).toBeNull();
    }
  });

  it('updates every field, keeps the author, and the page shows the new title at once', async () => {
    const blog = await createBlog();
    const oldTitle = blog.title as string;
    expect((await page(server, `/blog/${blog.id}`)).html).toContain(oldTitle);

    const newTitle = uniqueName('Renamed article');
    const pdf = (await uploadPdf(server, { data: makePdf(), name: 'x.pdf' }, auth)).body as Json;
    const updated = await put(
      `/api/blogs/${blog.id}`,
      validBlog({
        title: newTitle,
        content: '<h2>New heading</h2><p>New body.</p>',
        category_id: categories[1]!.id,
        isVideo: '1',
        video_link: 'https://youtu.be/dQw4w9WgXcQ',
        pdf_link: pdf.link,
      }),
    );
    expect(updated.status, updated.text).toBe(200);
    const body = updated.body as Json;
    expectLiveMs(body);
    expect(body).toMatchObject({
      id: blog.id,
      title: newTitle,
      author: blog.author,
      category_id: categories[1]!.id,
      category_name: categories[1]!.name,
      isVideo: '1',
      video_link: 'https://youtu.be/dQw4w9WgXcQ',
      pdf_drive_link: pdf.link,
      created_at: blog.created_at,
    });
    expect(body.content).toBe('<h2>New heading</h2><p>New body.</p>');

    const fetched = (await call(server, `/api/blogs/${blog.id}`)).body as Json;
    expect(fetched.title).toBe(newTitle);
    const article = await page(server, `/blog/${blog.id}`);
    expect(article.html).toContain(newTitle);
    expect(article.html).not.toContain(oldTitle);
    expect((await page(server, '/')).html).toContain(newTitle);
    expect((await page(server, '/download')).html).toContain(newTitle);
  });

  it('answers 404 for an unknown article and 400 for a malformed id', async () => {
    expectError(await put('/api/blogs/999999', validBlog()), 404, 'not_found');
    expectError(await del('/api/blogs/999999'), 404, 'not_found');
    expectError(await put('/api/blogs/abc', validBlog()), 400);
    expectError(await del('/api/blogs/0'), 400);
  });

  it('deletes an article with its comments; its page and list entries are gone at once', async () => {
    const blog = await createBlog({ pdf_link: 'https://drive.example.com/file.pdf' });
    const comment = await post(`/api/blogs/${blog.id}/comment`, { comment: 'Soon gone', username: 'Tester', contact: 'x' }, {});
    expect(comment.status, comment.text).toBe(201);
    expect((await page(server, '/download')).html).toContain(blog.title as string);

    const deleted = await del(`/api/blogs/${blog.id}`);
    expect(deleted.status, deleted.text).toBe(200);
    expect(typeof (deleted.body as Json).message).toBe('string');
    expectLiveMs(deleted.body as Json);

    expectError(await call(server, `/api/blogs/${blog.id}`), 404);
    expect((await page(server, `/blog/${blog.id}`)).status).toBe(404);
    expect((await page(server, '/')).html).not.toContain(blog.title as string);
    expect((await page(server, '/download')).html).not.toContain(blog.title as string);
    const comments = (await call(server, '/api/blogs/comment?limit=500', { headers: auth })).body as Json[];
    expect(comments.some((c) => c.blog_id === blog.id)).toBe(false);
    expectError(await del(`/api/blogs/${blog.id}`), 404);
  });
});

describe('blogs: validation (docs/product.md#validation-rules)', () => {
  async function expectFieldError(overrides: Json, field: string, message: string) {
    const before = await totalBlogs();
    const answer = await post('/api/blogs', validBlog(overrides));
    const body = expectError(answer, 400, 'invalid_input');
    expect(body.fields, JSON.stringify(overrides)).toMatchObject({ [field]: message });
    expect(body.message).toContain(message);
    expect(await totalBlogs()).toBe(before);
  }

  it('requires a title', async () => {
    await expectFieldError({ title: undefined }, 'title', BLOG_MESSAGES.titleRequired);
    await expectFieldError({ title: '   ' }, 'title', BLOG_MESSAGES.titleRequired);
    await expectFieldError({ title: 'x'.repeat(201) }, 'title', BLOG_MESSAGES.titleTooLong);
  });

  it('requires a category that exists', async () => {
    await expectFieldError({ category_id: '' }, 'category_id', BLOG_MESSAGES.categoryRequired);
    await expectFieldError({ category_id: undefined }, 'category_id', BLOG_MESSAGES.categoryRequired);
    await expectFieldError({ category_id: 'maths' }, 'category_id', BLOG_MESSAGES.categoryRequired);
    await expectFieldError({ category_id: 999999 }, 'category_id', BLOG_MESSAGES.categoryMissing);
    const blog = await createBlog({ category_id: String(categories[2]!.id) });
    expect(blog.category_id).toBe(categories[2]!.id);
  });

  it('takes an optional payment link that must be an http(s) URL', async () => {
    await expectFieldError({ payment_link: 'not a url' }, 'payment_link', BLOG_MESSAGES.paymentLink);
    await expectFieldError({ payment_link: 'javascript:alert(1)' }, 'payment_link', BLOG_MESSAGES.paymentLink);
    await expectFieldError({ payment_link: 'ftp://pay.example.com' }, 'payment_link', BLOG_MESSAGES.paymentLink);
    expect((await createBlog({ payment_link: '' })).pay_link).toBeNull();
  });

  it('requires a video link, a URL, on a video post', async () => {
    await expectFieldError({ isVideo: '1', video_link: '' }, 'video_link', BLOG_MESSAGES.videoRequired);
    await expectFieldError({ isVideo: true, video_link: 'youtube dot com' }, 'video_link', BLOG_MESSAGES.videoInvalid);
    await expectFieldError({ isVideo: '1', video_link: 'javascript:alert(1)' }, 'video_link', BLOG_MESSAGES.videoInvalid);
    await expectFieldError({ isVideo: 'maybe' }, 'isVideo', BLOG_MESSAGES.isVideo);
    // Not a video post: the link is not required and not kept.
    expect((await createBlog({ isVideo: '0', video_link: 'junk' })).video_link).toBeNull();
  });

  it('requires form name and form link, a URL, once a link is given', async () => {
    await expectFieldError({ form_name: 'Sign up', form_link: '' }, 'form_link', BLOG_MESSAGES.formLinkRequired);
    await expectFieldError(
      { form_name: '', form_link: 'https://forms.example.com/x' },
      'form_name',
      BLOG_MESSAGES.formNameRequired,
    );
    await expectFieldError({ form_name: 'Sign up', form_link: 'forms.example' }, 'form_link', BLOG_MESSAGES.formLinkInvalid);
    await expectFieldError({ form_name: 'Sign up', form_link: 'data:text/html,hi' }, 'form_link', BLOG_MESSAGES.formLinkInvalid);
    const none = await createBlog({ form_name: '  ', form_link: '' });
    expect(none.form_name).toBeNull();
    expect(none.form_link).toBeNull();
  });

  it('takes an image and a PDF only as an upload path or an http(s) address', async () => {
    for (const image of [
      'javascript:alert(1)',
      '/uploads/../db/site.sqlite',
      '//evil.example/x.png',
      '/etc/passwd',
      'data:image/png;base64,AAAA',
      '/uploads/a b.png',
    ]) {
      await expectFieldError({ image }, 'image', BLOG_MESSAGES.image);
    }
    for (const pdf_link of ['file:///etc/passwd', '/uploads/%2e%2e/x.pdf', 'javascript:alert(1)']) {
      await expectFieldError({ pdf_link }, 'pdf_link', BLOG_MESSAGES.pdf);
    }
    const ok = await createBlog({ image: '/uploads/images/abc123-w1600.webp', pdf_link: null });
    expect(ok.image).toBe('/uploads/images/abc123-w1600.webp');
    expect(ok.pdf_drive_link).toBeNull();
  });

  it('limits the size of the content', async () => {
    await expectFieldError({ content: `<p>${'a'.repeat(500 * 1024)}</p>` }, 'content', BLOG_MESSAGES.contentTooLong);
    await expectFieldError({ content: 42 }, 'content', BLOG_MESSAGES.contentNotText);
  });

  it('reports every broken field at once', async () => {
    const body = expectError(await post('/api/blogs', { isVideo: '1', form_name: 'x' }), 400, 'invalid_input');
    expect(Object.keys(body.fields as Json).sort()).toEqual(['category_id', 'form_link', 'title', 'video_link']);
  });

  it('refuses bodies that are not JSON objects', async () => {
    expectError(
      await call(server, '/api/blogs', {
        method: 'POST',
        headers: { ...auth, 'Content-Type': 'application/json' },
        body: '{"title":',
      }),
      400,
      'invalid_json',
    );
    expectError(
      await call(server, '/api/blogs', {
        method: 'POST',
        headers: { ...auth, 'Content-Type': 'application/json' },
        body: '[1,2]',
      }),
      400,
    );
    expectError(
      await call(server, '/api/blogs', { method: 'POST', headers: { ...auth, 'Content-Type': 'text/plain' }, body: 'title=x' }),
      415,
    );
  });

  it('validates updates with the same rules', async () => {
    const blog = await createBlog();
    const body = expectError(await put(`/api/blogs/${blog.id}`, validBlog({ title: '', payment_link: 'nope' })), 400);
    expect(body.fields).toMatchObject({ title: BLOG_MESSAGES.titleRequired, payment_link: BLOG_MESSAGES.paymentLink });
    expect(((await call(server, `/api/blogs/${blog.id}`)).body as Json).title).toBe(blog.title);
  });
});

describe('blogs: sanitization', () => {
  it('stores only safe HTML, whoever sends it, and keeps the editor source as given', async () => {
    const source = '# Title\n\n[link](javascript:alert(1)) <script>kept as text</script>';
    const blog = await createBlog({
      content: [
        '<h1>Heading</h1>',
        '<p>Hello <script>alert("xss")</script><strong>world</strong></p>',
        '<img src="https://images.example.com/a.png" onerror="alert(1)">',
        '<p><a href="javascript:alert(1)">bad link</a> <a href="JaVaScRiPt:alert(2)">bad 2</a> <a href="data:text/html,x">bad 3</a></p>',
        '<p><a href="https://example.com/ok">good</a> <a href="mailto:a@example.com">mail</a> <a href="tel:+123">tel</a></p>',
        '<p><span style="color: #ff0000; position: fixed">red</span><u>under</u></p>',
        '<iframe src="https://evil.example/embed"></iframe><svg><script>alert(3)</script></svg>',
      ].join(''),
      content_source: source,
    });
    const content = blog.content as string;
    expect(content).not.toMatch(/<script|onerror|javascript:|data:text|<svg|evil\.example|position/i);
    expect(content).toContain('<strong>world</strong>');
    expect(content).toContain('href="https://example.com/ok"');
    expect(content).toContain('href="mailto:a@example.com"');
    expect(content).toContain('href="tel:+123"');
    expect(content).toContain('<u>under</u>');
    expect(content).toMatch(/<span style="color:\s*#ff0000;?">red<\/span>/);
    // The unsafe links are kept as links with a blank address.
    const anchors = [...content.matchAll(/<a\b[^>]*>(bad(?: \d)? ?(?:link)?)<\/a>/g)];
    expect(anchors).toHaveLength(3);
    for (const [tag] of anchors) expect(tag).toMatch(/^<a(?![^>]*href="[^"])/);
    expect(blog.content_source).toBe(source);

    const html = (await page(server, `/blog/${blog.id}`)).html;
    expect(html).not.toContain('alert("xss")');
    expect(html).not.toContain('javascript:alert');
  });
});

describe('categories', () => {
  it('adds with a default sequence of 0 and refuses a duplicate name in any case', async () => {
    const name = `Zoology ${Date.now()}`;
    const created = await post('/api/categories', { name });
    expect(created.status, created.text).toBe(201);
    const body = created.body as Json;
    expect(body).toMatchObject({ name, sequence: 0 });
    expect(typeof body.id).toBe('number');
    expectLiveMs(body);
    const list = (await call(server, '/api/categories')).body as Json[];
    expect(list).toContainEqual({ id: body.id, name, sequence: 0 });
    // Readers are offered it with its first public article, not while it is empty.
    expect((await page(server, '/')).html).not.toContain(name);
    await createBlog({ category_id: body.id });
    expect((await page(server, '/')).html).toContain(name);

    for (const again of [name, name.toUpperCase(), `  ${name.toLowerCase()}  `]) {
      const conflict = expectError(await post('/api/categories', { name: again, sequence: 3 }), 409, 'conflict');
      expect(conflict.message).toBe(CATEGORY_MESSAGES.createFailed);
    }
  });

  it('validates the name and the sequence', async () => {
    let body = expectError(await post('/api/categories', { name: '   ', sequence: 1 }), 400, 'invalid_input');
    expect(body.fields).toEqual({ name: CATEGORY_MESSAGES.nameRequired });
    body = expectError(await post('/api/categories', { name: 'x'.repeat(61) }), 400);
    expect(body.fields).toEqual({ name: CATEGORY_MESSAGES.nameTooLong });
    for (const sequence of ['abc', 1.5, '2e3', true]) {
      body = expectError(await post('/api/categories', { name: `Seq ${String(sequence)}`, sequence }), 400);
      expect(body.fields).toEqual({ sequence: CATEGORY_MESSAGES.sequenceInvalid });
    }
    const created = await post('/api/categories', { name: `Numbered ${Date.now()}`, sequence: '7' });
    expect(created.status).toBe(201);
    expect((created.body as Json).sequence).toBe(7);
  });

  it('renames and re-orders, refusing a name another category has', async () => {
    const a = (await post('/api/categories', { name: `Alpha ${Date.now()}`, sequence: 5 })).body as Json;
    const b = (await post('/api/categories', { name: `Beta ${Date.now()}`, sequence: 6 })).body as Json;
    await createBlog({ category_id: a.id });
    const renamed = await put(`/api/categories/${a.id}`, { name: `Gamma ${Date.now()}`, sequence: 9 });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body).toMatchObject({ id: a.id, sequence: 9 });
    expectLiveMs(renamed.body as Json);
    expect((await call(server, '/api/categories')).body).toContainEqual({
      id: a.id,
      name: (renamed.body as Json).name,
      sequence: 9,
    });
    expect((await page(server, '/')).html).toContain((renamed.body as Json).name as string);

    // Same name in another case is the same category: allowed for itself, refused for another.
    expect(
      (await put(`/api/categories/${a.id}`, { name: ((renamed.body as Json).name as string).toUpperCase(), sequence: 9 })).status,
    ).toBe(200);
    expectError(await put(`/api/categories/${b.id}`, { name: (renamed.body as Json).name, sequence: 6 }), 409, 'conflict');
    expectError(await put('/api/categories/999999', { name: 'Nobody', sequence: 1 }), 404);
    expectError(await put(`/api/categories/${a.id}`, { name: '' }), 400);
  });

  it('deletes a category; its articles stay and show as General', async () => {
    const category = (await post('/api/categories', buildCategory({ name: uniqueName('Doomed') }))).body as Json;
    const blog = await createBlog({ category_id: category.id });
    expect((await page(server, `/blog/${blog.id}`)).html).toContain(category.name as string);

    const deleted = await del(`/api/categories/${category.id}`);
    expect(deleted.status, deleted.text).toBe(200);
    expect(typeof (deleted.body as Json).message).toBe('string');
    expectLiveMs(deleted.body as Json);

    expect(((await call(server, '/api/categories')).body as Json[]).some((c) => c.id === category.id)).toBe(false);
    const after = (await call(server, `/api/blogs/${blog.id}`)).body as Json;
    expect(after).toMatchObject({ category_id: null, category_name: null, title: blog.title });
    // The nav changed on every page: the article is refreshed in the background (served STALE meanwhile).
    const { html } = await until(
      () => page(server, `/blog/${blog.id}`),
      (p) => p.html.includes('General'),
      'the article to show General',
    );
    expect(html).not.toContain(category.name as string);
    expectError(await del(`/api/categories/${category.id}`), 404);
  });
});

describe('carousel', () => {
  it('adds a slide with a re-encoded image and deletes it', async () => {
    const png = await makePng(1200, 500);
    const added = await sendForm(
      server,
      '/api/carousel',
      { title: 'Exam season', image: { data: png, name: 'exam.png', type: 'image/png' } },
      auth,
    );
    expect(added.status, added.text).toBe(201);
    const body = added.body as Json;
    expect(body.message).toBe(CAROUSEL_MESSAGES.added);
    expectLiveMs(body);
    const slide = body.slide as Json;
    expect(slide).toMatchObject({ title: 'Exam season', altText: 'Exam season' });
    expect(slide.image_url).toMatch(/^\/uploads\/images\/[a-z0-9]+-w1600\.webp$/);
    expect((await call(server, '/api/carousel')).body).toContainEqual(slide);
    const image = await fetch(server.url(slide.image_url as string));
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/webp');
    expect((await page(server, '/')).html).toContain('Exam season');

    const deleted = await del(`/api/carousel/${slide.id}`);
    expect(deleted.status, deleted.text).toBe(200);
    expect((deleted.body as Json).message).toBe(CAROUSEL_MESSAGES.deleted);
    expectLiveMs(deleted.body as Json);
    expect(((await call(server, '/api/carousel')).body as Json[]).some((s) => s.id === slide.id)).toBe(false);
    expect((await page(server, '/')).html).not.toContain('Exam season');
    // Nothing else used the image, so its files went with the slide.
    expect((await fetch(server.url(slide.image_url as string))).status).toBe(404);
    expectError(await del(`/api/carousel/${slide.id}`), 404);
  });

  it('requires a title and an image, which must really be an image', async () => {
    const before = (await call(server, '/api/carousel')).text;
    const png = await makePng(40, 40);
    let body = expectError(await sendForm(server, '/api/carousel', { title: 'No image' }, auth), 400, 'invalid_input');
    expect(body.fields).toEqual({ image: UPLOAD_MESSAGES.imageMissing });
    expect(body.message).toBe('Please select an image file to upload.');
    body = expectError(await sendForm(server, '/api/carousel', { title: '  ', image: { data: png, name: 'a.png' } }, auth), 400);
    expect(body.fields).toEqual({ title: CAROUSEL_MESSAGES.titleRequired });
    body = expectError(
      await sendForm(
        server,
        '/api/carousel',
        { title: 'Fake', image: { data: Buffer.from('<html>hi</html>'), name: 'a.png', type: 'image/png' } },
        auth,
      ),
      415,
    );
    expect(body.message).toBe(UPLOAD_MESSAGES.imageType);
    expectError(await sendJson(server, 'POST', '/api/carousel', { title: 'json' }, auth), 415);
    expect((await call(server, '/api/carousel')).text).toBe(before);
  });
});

describe('comments (admin)', () => {
  it('lists every comment with its article title, newest first, in pages', async () => {
    const blog = await createBlog();
    for (const text of ['First admin-test comment', 'Second admin-test comment']) {
      const answer = await post(`/api/blogs/${blog.id}/comment`, { comment: text, username: 'Reader', contact: 'r' }, {});
      expect(answer.status, answer.text).toBe(201);
    }
    const list = await call(server, '/api/blogs/comment', { headers: auth });
    expect(list.status).toBe(200);
    const items = list.body as Json[];
    const total = Number(list.headers.get('x-total-count'));
    expect(total).toBeGreaterThanOrEqual(32);
    expect(items.length).toBe(Math.min(total, 100));
    expect(Object.keys(items[0]!).sort()).toEqual(['blog_id', 'blog_title', 'comment', 'created_at', 'id', 'username']);
    expect(items[0]).toMatchObject({
      blog_id: blog.id,
      blog_title: blog.title,
      comment: 'Second admin-test comment',
      username: 'Reader',
    });
    expect(items[1]).toMatchObject({ comment: 'First admin-test comment' });
    const ids = items.map((c) => c.id as number);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);

    const second = await call(server, '/api/blogs/comment?limit=1&offset=1', { headers: auth });
    expect(second.body).toEqual([items[1]]);
    const capped = await call(server, '/api/blogs/comment?limit=100000', { headers: auth });
    expect((capped.body as Json[]).length).toBe(Math.min(total, 500));
    expectError(await call(server, '/api/blogs/comment?limit=abc', { headers: auth }), 400);
    expectError(await call(server, '/api/blogs/comment?offset=-1', { headers: auth }), 400);
  });

  it('deletes a comment; the article and its page update', async () => {
    const blog = await createBlog();
    const text = `Spam to delete ${Date.now()}`;
    const posted = (await post(`/api/blogs/${blog.id}/comment`, { comment: text, username: 'Spammer', contact: 's' }, {}))
      .body as Json;
    expect((await page(server, `/blog/${blog.id}`)).html).toContain(text);

    const deleted = await del(`/api/blogs/comment/${posted.id}`);
    expect(deleted.status, deleted.text).toBe(200);
    expect(typeof (deleted.body as Json).message).toBe('string');
    expectLiveMs(deleted.body as Json);
    expect(((await call(server, `/api/blogs/${blog.id}`)).body as Json).comments).toEqual([]);
    expect((await page(server, `/blog/${blog.id}`)).html).not.toContain(text);
    expectError(await del(`/api/blogs/comment/${posted.id}`), 404);
    expectError(await del('/api/blogs/comment/nope'), 400);
  });
});
