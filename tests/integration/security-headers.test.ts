import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server.ts';
import { bearer, loginAsAdmin, type Session } from '../support/auth.ts';
import { makePdf, makePng } from '../support/files.ts';
import { sendJson, uploadImage, uploadPdf, type Json } from './http-support.ts';

/**
 * The security headers of every kind of answer the real server gives (issue 6, "Headers and
 * policy"): stored pages from the page store, pages Astro renders on the spot, the 404 page, JSON,
 * uploads, hashed assets, admin and login screens. The page policy is read apart into directives
 * and checked rule by rule, and every inline script of a page must be one the policy names.
 */

let server: TestServer;
let admin: Session;

type Directives = Map<string, string[]>;

function parsePolicy(policy: string | null): Directives {
  expect(policy, 'Content-Security-Policy header').toBeTruthy();
  const directives: Directives = new Map();
  for (const part of policy!.split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (!name) continue;
    expect(directives.has(name), `directive ${name} appears once`).toBe(false);
    directives.set(name.toLowerCase(), values);
  }
  return directives;
}

async function fetchWith(path: string, init: RequestInit = {}): Promise<{ status: number; headers: Headers; body: string }> {
  const response = await fetch(server.url(path), { redirect: 'manual', ...init });
  return { status: response.status, headers: response.headers, body: await response.text() };
}

/** The headers every answer carries, whatever it is. */
function expectCommonHeaders(headers: Headers, what: string): void {
  expect(headers.get('x-content-type-options'), what).toBe('nosniff');
  expect(headers.get('referrer-policy'), what).toBe('strict-origin-when-cross-origin');
  expect(headers.get('x-frame-options'), what).toBe('DENY');
  // The test server's public origin is plain http: HSTS there would be ignored, or worse, remembered.
  expect(headers.get('strict-transport-security'), what).toBeNull();
  expect(headers.get('content-security-policy'), what).toBeTruthy();
}

/** The page policy of DESIGN/issue 6, directive by directive. */
function expectPagePolicy(headers: Headers, html: string, what: string): Directives {
  expectCommonHeaders(headers, what);
  const csp = parsePolicy(headers.get('content-security-policy'));
  expect(csp.get('default-src'), what).toEqual(["'self'"]);
  const scripts = csp.get('script-src') ?? [];
  expect(scripts, what).toContain("'self'");
  // Only 'self' and hashes: no 'unsafe-inline', 'unsafe-eval', hosts, schemes or wildcards.
  for (const source of scripts)
    expect(source === "'self'" || /^'sha(256|384|512)-[A-Za-z0-9+/=]+'$/.test(source), `${what}: script source ${source}`).toBe(
      true,
    );
  expect(csp.get('script-src-attr'), what).toEqual(["'none'"]);
  expect(csp.has('script-src-elem'), what).toBe(false);
  expect(csp.get('object-src'), what).toEqual(["'none'"]);
  expect(csp.get('base-uri'), what).toEqual(["'self'"]);
  expect(csp.get('form-action'), what).toEqual(["'self'"]);
  expect(csp.get('frame-ancestors'), what).toEqual(["'none'"]);
  expect(csp.get('frame-src'), what).toEqual(['https:']);
  expect(csp.get('img-src'), what).toEqual(["'self'", 'https:']);
  const styles = csp.get('style-src') ?? [];
  expect(styles, what).toContain("'self'");
  expect(styles, what).not.toContain("'unsafe-inline'");
  // Style attributes only (article text colours); never style elements or sheets.
  expect(csp.get('style-src-attr'), what).toEqual(["'unsafe-inline'"]);
  expect(csp.has('style-src-elem'), what).toBe(false);

  // Every inline script the page runs is one of the hashes; data blocks (JSON-LD) do not run.
  const hashes = new Set(scripts);
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    const attributes = match[1]!;
    if (/\bsrc\s*=/.test(attributes)) continue;
    const type = /\btype\s*=\s*"([^"]*)"/i.exec(attributes)?.[1] ?? '';
    if (type !== '' && type !== 'module' && !/javascript/i.test(type)) continue;
    const digest = `'sha256-${crypto.createHash('sha256').update(match[2]!, 'utf8').digest('base64')}'`;
    expect(hashes.has(digest), `${what}: inline script ${match[2]!.slice(0, 60)}... is named by the policy`).toBe(true);
  }
  // No inline event handlers in our markup (script-src-attr 'none' would block them anyway).
  const tags = html.match(/<[a-z][^>]*>/gi) ?? [];
  const handlers = tags.filter((tag) => /\son[a-z]+\s*=/i.test(tag));
  expect(handlers, `${what}: inline event handlers`).toEqual([]);
  return csp;
}

/** Non-page answers: nothing may load, run or frame them. */
function expectStrictPolicy(headers: Headers, what: string): void {
  expectCommonHeaders(headers, what);
  const csp = parsePolicy(headers.get('content-security-policy'));
  expect(csp.get('default-src'), what).toEqual(["'none'"]);
  expect(csp.get('frame-ancestors'), what).toEqual(["'none'"]);
}

beforeAll(async () => {
  server = await startServer();
  admin = await loginAsAdmin(server);
});

afterAll(async () => {
  await server?.stop();
});

describe('pages', () => {
  it('a stored page answered from the page store (HIT) carries the page policy', async () => {
    await fetchWith('/');
    const page = await fetchWith('/');
    expect(page.status).toBe(200);
    expect(page.headers.get('x-page-store')).toBe('HIT');
    expectPagePolicy(page.headers, page.body, 'stored home page');

    const article = await fetchWith('/blog/1');
    expect(article.status).toBe(200);
    expect(article.headers.get('x-page-store')).toMatch(/^(HIT|MISS|REFRESHED)$/);
    expectPagePolicy(article.headers, article.body, 'stored article');
  });

  it('a page re-rendered after a change (REFRESHED) and one Astro renders per request carry the same policy', async () => {
    const stored = await fetchWith('/about');
    // A category rename changes the nav of every page: /about is re-rendered on its next request.
    const categories = (await (await fetch(server.url('/api/categories'))).json()) as Json[];
    const first = categories[0]!;
    const renamed = await sendJson(
      server,
      'PUT',
      `/api/categories/${first.id as number}`,
      { name: `${first.name as string} Notes`, sequence: first.sequence },
      bearer(admin),
    );
    expect(renamed.status, renamed.text).toBe(200);
    const refreshed = await fetchWith('/about');
    expect(refreshed.headers.get('x-page-store')).toMatch(/^(REFRESHED|HIT)$/);
    expect(refreshed.body).toContain(`${first.name as string} Notes`);
    expectPagePolicy(refreshed.headers, refreshed.body, 'refreshed page');

    // Search results are never stored: Astro renders them for each request.
    const search = await fetchWith('/blogs?search=notes');
    expect(search.status).toBe(200);
    expect(search.headers.get('x-page-store')).toBeNull();
    expectPagePolicy(search.headers, search.body, 'search page rendered by Astro');

    // Same inline scripts, same narrowed policy: the stored page's header is exactly what a render sends.
    expect(stored.headers.get('content-security-policy')).toBe(search.headers.get('content-security-policy'));
    expect(refreshed.headers.get('content-security-policy')).toBe(search.headers.get('content-security-policy'));
  });

  it('the 404 page carries the page policy', async () => {
    const missing = await fetchWith('/no-such-page-here');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toMatch(/^text\/html/);
    expectPagePolicy(missing.headers, missing.body, '404 page');
    const missingArticle = await fetchWith('/blog/999999');
    expect(missingArticle.status).toBe(404);
    expectPagePolicy(missingArticle.headers, missingArticle.body, 'missing article');
  });

  it('the login and sign-up screens carry the page policy', async () => {
    for (const path of ['/login', '/register']) {
      const page = await fetchWith(path);
      expect(page.status).toBe(200);
      expectPagePolicy(page.headers, page.body, path);
    }
  });

  it('admin screens carry the page policy and are never cached', async () => {
    for (const path of ['/admin', '/admin/blogs-create', '/admin/comments-manage']) {
      const page = await fetchWith(path, { headers: { Cookie: admin.cookie } });
      expect(page.status, path).toBe(200);
      expect(page.headers.get('cache-control')).toBe('private, no-store');
      expectPagePolicy(page.headers, page.body, path);
    }
    // Signed out, /admin redirects; the redirect still carries the common headers.
    const redirect = await fetchWith('/admin');
    expect(redirect.status).toBe(302);
    expectCommonHeaders(redirect.headers, '/admin redirect');
  });

  it('stored feeds and the sitemap get the strict policy, not the page one', async () => {
    for (const path of ['/rss.xml', '/sitemap.xml', '/robots.txt']) {
      const answer = await fetchWith(path);
      expect(answer.status, path).toBe(200);
      expectStrictPolicy(answer.headers, path);
    }
  });
});

describe('everything else', () => {
  it('/api JSON answers, errors included', async () => {
    for (const path of ['/api/blogs', '/api/categories', '/api/blogs/999999', '/api/nothing']) {
      const answer = await fetchWith(path);
      expect(answer.headers.get('content-type'), path).toMatch(/^application\/json/);
      expectStrictPolicy(answer.headers, path);
    }
    const refused = await sendJson(server, 'POST', '/api/categories', { name: 'x' });
    expect(refused.status).toBe(401);
    expectStrictPolicy(refused.headers, 'refused POST');
  });

  it('hashed /_astro assets', async () => {
    const home = await fetchWith('/');
    const asset = /href="(\/_astro\/[^"]+\.css)"/.exec(home.body)?.[1];
    expect(asset).toBeTruthy();
    const answer = await fetchWith(asset!);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toContain('immutable');
    expectStrictPolicy(answer.headers, asset!);
    const script =
      /src="(\/_astro\/[^"]+\.js)"/.exec(home.body)?.[1] ?? /component-url="(\/_astro\/[^"]+\.js)"/.exec(home.body)?.[1];
    expect(script).toBeTruthy();
    expectStrictPolicy((await fetchWith(script!)).headers, script!);
  });

  it('uploaded images and PDFs are sandboxed and never sniffed', async () => {
    const image = await uploadImage(server, { data: await makePng(120, 80), name: 'a.png', type: 'image/png' }, bearer(admin));
    expect(image.status, image.text).toBe(201);
    const imageUrl = (image.body as Json).url as string;
    const pdf = await uploadPdf(server, { data: makePdf(), name: 'notes.pdf', type: 'application/pdf' }, bearer(admin));
    expect(pdf.status, pdf.text).toBe(201);
    const pdfUrl = new URL((pdf.body as Json).link as string, server.origin).pathname;

    for (const [url, type] of [
      [imageUrl, /^image\//],
      [pdfUrl, /^application\/pdf/],
    ] as const) {
      const answer = await fetchWith(url);
      expect(answer.status, url).toBe(200);
      expect(answer.headers.get('content-type'), url).toMatch(type);
      expectCommonHeaders(answer.headers, url);
      const csp = parsePolicy(answer.headers.get('content-security-policy'));
      expect(csp.get('default-src'), url).toEqual(["'none'"]);
      expect(csp.has('sandbox'), url).toBe(true);
      expect(csp.get('sandbox'), url).toEqual([]);
      expect(csp.has('script-src'), url).toBe(false);
    }
    expect((await fetchWith(pdfUrl)).headers.get('content-disposition')).toMatch(/^attachment;/);
    // A missing upload is a plain 404 with the same headers.
    const missing = await fetchWith('/uploads/images/nothing-w1600.webp');
    expect(missing.status).toBe(404);
    expectStrictPolicy(missing.headers, 'missing upload');
  });
});

describe('over TLS', () => {
  it('sends HSTS when the public origin is https, and not otherwise', async () => {
    const tls = await startServer({ env: { PUBLIC_ORIGIN: 'https://notes.example.test', SEED_DEMO: 'false' } });
    try {
      for (const path of ['/', '/api/categories', '/login']) {
        const response = await fetch(tls.url(path), { redirect: 'manual' });
        await response.arrayBuffer();
        expect(response.headers.get('strict-transport-security'), path).toBe('max-age=31536000; includeSubDomains');
        expect(response.headers.get('content-security-policy'), path).toBeTruthy();
      }
    } finally {
      await tls.stop();
    }
  });
});
