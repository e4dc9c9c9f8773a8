import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/server/db/client.ts';
import { insertBlog } from '../../src/server/db/repositories/blogs.ts';
import { startServer, type TestServer } from '../support/server.ts';
import { bearer, loginAsAdmin } from '../support/auth.ts';
import { buildBlogBody, buildBlogWrite, type Json } from '../support/builders.ts';
import { makePdf } from '../support/files.ts';
import { sendJson, uploadPdf } from './http-support.ts';

/**
 * The /blogs search over HTTP, on the real built server: misspellings, words only in an attached
 * PDF, highlighted and escaped snippets, where the words matched, words in Hindi, Arabic and
 * Chinese, the pager's Previous and Next, and the per-address limit.
 */

let server: TestServer;
let headers: Record<string, string>;
let categoryId: number;
const ids: Record<string, number> = {};

async function createBlog(key: string, overrides: Json): Promise<void> {
  const answer = await sendJson(server, 'POST', '/api/blogs', buildBlogBody(categoryId, overrides), headers);
  expect(answer.status, answer.text).toBe(201);
  ids[key] = (answer.body as { id: number }).id;
}

async function searchPage(target: TestServer, text: string, pageNumber = 1) {
  const query = new URLSearchParams({ search: text });
  if (pageNumber > 1) query.set('page', String(pageNumber));
  const response = await fetch(target.url(`/blogs?${query}`));
  const html = await response.text();
  const main = html.slice(html.indexOf('<main'), html.indexOf('</main>'));
  return { status: response.status, headers: response.headers, html, main };
}

const readMoreIds = (main: string) => [...main.matchAll(/href="\/blog\/(\d+)"/g)].map((m) => Number(m[1]));

beforeAll(async () => {
  server = await startServer({ env: { SEED_DEMO: 'false' } });
  headers = bearer(await loginAsAdmin(server));
  const category = await sendJson(server, 'POST', '/api/categories', { name: 'Sciences', sequence: 0 }, headers);
  categoryId = (category.body as { id: number }).id;
  await createBlog('photo', { title: 'How plants eat', content: '<p>Photosynthesis turns light into sugar.</p>' });
  await createBlog('thermo', { title: 'Heat and work', content: '<p>The laws of thermodynamics, briefly.</p>' });
  await createBlog('pyth', { title: 'Right triangles', content: '<p>Pythagoras and the squares of the sides.</p>' });
  await createBlog('script', {
    title: 'Safe copying',
    content: '<p>Never paste &lt;script&gt;alert(1)&lt;/script&gt; into a console.</p>',
  });
  await createBlog('hindi', { title: 'व्याकरण के नियम', content: '<p>हिन्दी व्याकरण के उदाहरण</p>' });
  await createBlog('arabic', { title: 'قواعد اللغة', content: '<p>الكِتَابُ في المكتبة المدرسية</p>' });
  await createBlog('chinese', { title: '学习笔记', content: '<p>东京大学的数学课程非常有名</p>' });
  for (const n of [1, 2, 3]) await createBlog(`trilobite${n}`, { content: `<p>Trilobite fossils, part ${n}.</p>` });
  const pdf = await uploadPdf(
    server,
    { data: makePdf('Lab sheet', ['The xylophonist measured the wavelength.']), name: 'lab.pdf' },
    headers,
  );
  expect(pdf.status, pdf.text).toBe(201);
  await createBlog('pdf', {
    title: 'Sound lab',
    content: '<p>See the attached sheet.</p>',
    pdf_link: (pdf.body as { link: string }).link,
  });
});

afterAll(async () => {
  await server?.stop();
});

describe('search results', () => {
  it('find the article for a misspelled word and say which word was searched', async () => {
    for (const [typed, key, meant] of [
      ['photosynthsis', 'photo', 'photosynthesis'],
      ['thermodinamics', 'thermo', 'thermodynamics'],
      ['pythagorus', 'pyth', 'pythagoras'],
    ] as const) {
      const result = await searchPage(server, typed);
      expect(result.status).toBe(200);
      expect(readMoreIds(result.main)).toEqual([ids[key]]);
      expect(result.main).toContain(`for “${meant}”`);
      expect(result.main.toLowerCase()).toContain(`<mark>${meant}</mark>`);
    }
  });

  it('find a word that is only in the attached PDF, and say the match is in the PDF', async () => {
    const result = await searchPage(server, 'xylophonist');
    expect(readMoreIds(result.main)).toEqual([ids.pdf]);
    expect(result.main).toContain('Matched in the attached PDF');
    expect(result.main).toContain('<mark>xylophonist</mark>');
  });

  it('highlight the words in an escaped snippet and name the title or the text', async () => {
    const result = await searchPage(server, 'alert');
    expect(readMoreIds(result.main)).toEqual([ids.script]);
    expect(result.main).toContain('&lt;script&gt;<mark>alert</mark>(1)&lt;/script&gt;');
    expect(result.main).not.toMatch(/<script>alert/);
    expect(result.main).toContain('Matched in the text');
    const inTitle = await searchPage(server, 'triangles');
    expect(inTitle.main).toContain('Matched in the title');
  });

  it('keep the search heading and the query in the search box', async () => {
    const result = await searchPage(server, 'photosynthesis');
    expect(result.main).toContain('Search Results for: &quot;photosynthesis&quot;');
    expect(result.html).toMatch(/<input[^>]*name="search"[^>]*value="photosynthesis"/);
  });

  it('find words in Hindi, Arabic (typed without vowel marks) and Chinese (no spaces)', async () => {
    expect(readMoreIds((await searchPage(server, 'व्याकरण')).main)).toEqual([ids.hindi]);
    expect(readMoreIds((await searchPage(server, 'الكتاب')).main)).toEqual([ids.arabic]);
    expect(readMoreIds((await searchPage(server, 'المكتبة')).main)).toEqual([ids.arabic]);
    const chinese = await searchPage(server, '数学课程');
    expect(readMoreIds(chinese.main)).toEqual([ids.chinese]);
    expect(chinese.main).toContain('<mark>数学课程</mark>');
    expect(readMoreIds((await searchPage(server, '大学')).main)).toEqual([ids.chinese]);
  });

  it('page one result at a time with Previous and Next links, absent at the ends', async () => {
    const first = await searchPage(server, 'trilobite');
    expect(first.main).toContain('3 results');
    expect(first.main).not.toContain('rel="prev"');
    expect(first.main).toMatch(/<a[^>]*href="\/blogs\?search=trilobite&amp;page=2"[^>]*rel="next"[^>]*aria-label="Next page"/);
    const middle = await searchPage(server, 'trilobite', 2);
    expect(middle.main).toMatch(/<a[^>]*href="\/blogs\?search=trilobite"[^>]*rel="prev"[^>]*aria-label="Previous page"/);
    expect(middle.main).toContain('rel="next"');
    const last = await searchPage(server, 'trilobite', 3);
    expect(last.main).toContain('rel="prev"');
    expect(last.main).not.toContain('rel="next"');
    const pages = [first, middle, last].flatMap((p) => readMoreIds(p.main));
    expect(new Set(pages)).toEqual(new Set([ids.trilobite1, ids.trilobite2, ids.trilobite3]));
    expect((await searchPage(server, 'trilobite', 4)).status).toBe(404);
  });

  it('are searched by the search worker and rendered by a render worker, not the thread that serves readers', async () => {
    // X-Rendered-By is a test build's seam, set only by a render worker's render of a search page.
    for (const text of ['photosynthesis', 'no such word anywhere', 'trilobite']) {
      const result = await searchPage(server, text);
      expect(result.status).toBe(200);
      expect(result.headers.get('x-rendered-by'), text).toBe('render-worker');
      expect(result.headers.get('cache-control')).toBe('private, no-store');
    }
    expect((await searchPage(server, 'trilobite', 4)).headers.get('x-rendered-by')).toBe('render-worker');
    const head = await fetch(server.url('/blogs?search=trilobite'), { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('x-rendered-by')).toBe('render-worker');
  });

  it('keep Previous and Next on the plain article list', async () => {
    const response = await fetch(server.url('/blogs?page=2'));
    const html = await response.text();
    expect(html).toMatch(/<a[^>]*href="\/blogs"[^>]*rel="prev"/);
    expect(html).toMatch(/<a[^>]*href="\/blogs\?page=3"[^>]*rel="next"/);
  });
});

describe('search limits', () => {
  let limited: TestServer;

  beforeAll(async () => {
    // A window longer than the test, however long its searches take on a busy machine.
    limited = await startServer({
      env: { SEED_DEMO: 'false', RATE_LIMIT_SEARCH_IP: '3', RATE_LIMIT_SEARCH_WINDOW_SECONDS: '3600' },
    });
  });

  afterAll(async () => {
    await limited?.stop();
  });

  it('answers a polite 429 page with Retry-After once an address searched too often', async () => {
    for (let i = 0; i < 3; i++) expect((await searchPage(limited, `word${i}`)).status, limited.output()).toBe(200);
    const refused = await searchPage(limited, 'word4');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.main).toContain('Please wait');
    expect(refused.headers.get('x-rendered-by')).toBe('render-worker');
    expect((await fetch(limited.url('/blogs'))).status).toBe(200);
    // The API's search counts against the same allowance and says so in JSON.
    const api = await fetch(limited.url('/api/blogs?search=word5'));
    expect(api.status).toBe(429);
    expect(Number(api.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await api.json()).toMatchObject({ error: 'rate_limited', message: expect.stringContaining('Too many searches') });
    expect((await fetch(limited.url('/api/blogs?limit=5'))).status).toBe(200);
  });
});

describe('PDFs attached before the search read them', () => {
  it('are read at the next start', async () => {
    const first = await startServer({ env: { SEED_DEMO: 'false' } });
    await first.stop();
    fs.mkdirSync(path.join(first.uploadsDir, 'pdfs'), { recursive: true });
    fs.writeFileSync(path.join(first.uploadsDir, 'pdfs', 'old.pdf'), makePdf('Old notes', ['An archaeopteryx feather.']));
    const { db, sqlite } = openDatabase(first.databasePath);
    const id = await insertBlog(
      db,
      buildBlogWrite({ title: 'Old article', pdf_drive_link: '/uploads/pdfs/old.pdf' }),
      'Old text.',
    );
    sqlite.close();
    const again = await startServer({ dir: first.dir, env: { SEED_DEMO: 'false' } });
    try {
      await expect
        .poll(async () => readMoreIds((await searchPage(again, 'archaeopteryx')).main), { timeout: 300_000 })
        .toEqual([id]);
    } finally {
      await again.stop();
    }
  });
});
