import crypto from 'node:crypto';
import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, untilPrerendered, type TestServer } from '../support/server.ts';
import { bearer, loginAsAdmin } from '../support/auth.ts';
import { makePdf } from '../support/files.ts';
import { uploadPdf, type Json } from './http-support.ts';
import { untilTrue } from '../support/wait.ts';

/**
 * What the front server sends besides stored pages: hashed assets compressed at build time,
 * uploads with byte ranges (a PDF download resumes), and no stored page for a category that
 * does not exist.
 */

let server: TestServer;

interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** A GET with exactly these headers; the body as sent, not decoded (fetch would decode it). */
function rawGet(urlPath: string, headers: Record<string, string> = {}, method = 'GET'): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const request = http.request(server.url(urlPath), { method, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }));
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end();
  });
}

function storedPageCount(): number {
  const db = new SQLite(path.join(server.dir, 'pages', 'pages.sqlite'), { readonly: true });
  try {
    db.pragma('busy_timeout = 5000');
    return (db.prepare('select count(*) as n from pages').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

/** Which encodings the store file holds for a page (made on a reader's first request for each). */
function storedEncodings(key: string): { gzip: boolean; br: boolean } | undefined {
  const db = new SQLite(path.join(server.dir, 'pages', 'pages.sqlite'), { readonly: true });
  try {
    db.pragma('busy_timeout = 5000');
    const row = db.prepare('select gzip is not null as gzip, br is not null as br from pages where key = ?').get(key) as
      | { gzip: number; br: number }
      | undefined;
    return row && { gzip: row.gzip === 1, br: row.br === 1 };
  } finally {
    db.close();
  }
}

beforeAll(async () => {
  server = await startServer();
  await untilPrerendered(server);
});

afterAll(async () => {
  await server?.stop();
});

/** Hash sources of the inline scripts that run and the style elements of a page. */
function inlineHashesOf(html: string): Set<string> {
  const hash = (text: string) => `'sha256-${crypto.createHash('sha256').update(text, 'utf8').digest('base64')}'`;
  const found = new Set<string>();
  for (const [, attributes, text] of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    const type = /\btype\s*=\s*"([^"]*)"/i.exec(attributes!)?.[1] ?? '';
    if (!/\bsrc\s*=/.test(attributes!) && (type === '' || type === 'module')) found.add(hash(text!));
  }
  for (const [, text] of html.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style>/gi)) found.add(hash(text!));
  return found;
}

describe('lean page answers', () => {
  it('keeps every pre-rendered page in brotli only, and answers a reader who takes no encoding the same page', async () => {
    const counts = () => {
      const db = new SQLite(path.join(server.dir, 'pages', 'pages.sqlite'), { readonly: true });
      try {
        db.pragma('busy_timeout = 5000');
        return db
          .prepare(
            'select count(*) as pages, sum(br is null) as withoutBr, sum(body is not null) as withBody, sum(gzip is not null) as withGzip from pages',
          )
          .get() as { pages: number; withoutBr: number; withBody: number; withGzip: number };
      } finally {
        db.close();
      }
    };
    // The workers made each page's brotli copy with it (a page rendered for a waiting reader
    // meanwhile gets its copy after the pre-render); the file keeps no body beside it.
    await untilTrue(() => counts().withoutBr === 0, 'a brotli copy of every stored page');
    expect(counts().pages).toBeGreaterThan(10);
    expect(counts().withBody).toBe(0);
    // Nobody asked for gzip: no page has it.
    expect(counts().withGzip).toBe(0);
    const plain = await rawGet('/about', { 'accept-encoding': 'identity' });
    const answer = await rawGet('/about', { 'accept-encoding': 'br' });
    expect(answer.headers['content-encoding']).toBe('br');
    expect(zlib.brotliDecompressSync(answer.body).equals(plain.body)).toBe(true);
    expect(answer.headers.etag).toBe(plain.headers.etag);
  });

  it('makes an encoding a reader asks for that the page lacks on a worker, and keeps it for the next ones', async () => {
    expect(storedEncodings('/contact')?.gzip).toBe(false);
    const plain = await rawGet('/contact', { 'accept-encoding': 'identity' });
    expect(plain.headers['x-page-store']).toBe('HIT');
    expect(plain.headers['content-encoding']).toBeUndefined();

    // Each process's first gzip reader waits for a worker to make it (or takes the file's copy).
    for (let i = 0; i < 4; i++) {
      const answer = await rawGet('/contact', { 'accept-encoding': 'gzip' });
      expect(answer.headers['x-page-store']).toBe('HIT');
      expect(answer.headers['content-encoding']).toBe('gzip');
      expect(answer.headers['content-length']).toBe(String(answer.body.length));
      expect(zlib.gunzipSync(answer.body).equals(plain.body)).toBe(true);
      expect(answer.headers.etag).toBe(plain.headers.etag);
    }
    await untilTrue(() => Boolean(storedEncodings('/contact')?.gzip), 'the gzip copy of /contact in the store');
  });

  it("a page's policy names only the inline scripts and styles that page has, stored or rendered per request", async () => {
    for (const urlPath of ['/', '/blog/1', '/about', '/blogs?search=notes', '/login', '/no-such-page']) {
      const answer = await rawGet(urlPath);
      const policy = String(answer.headers['content-security-policy']);
      const named = [...(policy.match(/'sha256-[^']+'/g) ?? [])].sort();
      const onPage = [...inlineHashesOf(answer.body.toString())].sort();
      expect(onPage.length, urlPath).toBeGreaterThan(0);
      expect(named, urlPath).toEqual(onPage);
    }
  });

  it('a 304 for a stored page carries its validators and policy, not the description of a body', async () => {
    await rawGet('/about');
    const page = await rawGet('/about');
    expect(page.headers['x-page-store']).toBe('HIT');
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    const again = await rawGet('/about', { 'if-none-match': page.headers.etag! });
    expect(again.status).toBe(304);
    expect(again.headers.etag).toBe(page.headers.etag);
    expect(again.headers['content-security-policy']).toBe(page.headers['content-security-policy']);
    expect(again.headers['x-frame-options']).toBe('DENY');
    expect(again.headers['cache-control']).toBe(page.headers['cache-control']);
    expect(again.headers['content-type']).toBeUndefined();
    expect(again.headers['x-rendered-at']).toBeUndefined();
  });
});

describe('hashed /_astro assets', () => {
  async function assetsOfHome(): Promise<string[]> {
    const home = (await rawGet('/')).body.toString();
    const assets = [
      ...new Set(
        [...home.matchAll(/(?:src|href|component-url|renderer-url)="(\/_astro\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]!),
      ),
    ];
    expect(assets.some((a) => a.endsWith('.js'))).toBe(true);
    expect(assets.some((a) => a.endsWith('.css'))).toBe(true);
    return assets;
  }

  it('are sent brotli or gzip encoded as the client accepts, decoding to the same bytes', async () => {
    for (const asset of await assetsOfHome()) {
      const plain = await rawGet(asset);
      expect(plain.status, asset).toBe(200);
      expect(plain.headers['content-encoding'], asset).toBeUndefined();
      expect(plain.headers['content-length'], asset).toBe(String(plain.body.length));
      expect(plain.headers.vary, asset).toBe('Accept-Encoding');

      const br = await rawGet(asset, { 'accept-encoding': 'gzip, deflate, br' });
      expect(br.status, asset).toBe(200);
      expect(br.headers['content-encoding'], asset).toBe('br');
      expect(br.headers.vary, asset).toBe('Accept-Encoding');
      expect(br.headers['content-length'], asset).toBe(String(br.body.length));
      expect(br.headers['cache-control'], asset).toBe('public, max-age=31536000, immutable');
      expect(br.headers['content-type'], asset).toBe(plain.headers['content-type']);
      expect(zlib.brotliDecompressSync(br.body).equals(plain.body), asset).toBe(true);

      const gzip = await rawGet(asset, { 'accept-encoding': 'gzip' });
      expect(gzip.headers['content-encoding'], asset).toBe('gzip');
      expect(gzip.headers['content-length'], asset).toBe(String(gzip.body.length));
      expect(gzip.headers['cache-control'], asset).toBe('public, max-age=31536000, immutable');
      expect(zlib.gunzipSync(gzip.body).equals(plain.body), asset).toBe(true);

      // Each coding is its own representation: its own validator, and a 304 for it.
      const tags = new Set([plain.headers.etag, br.headers.etag, gzip.headers.etag]);
      expect(tags.size, asset).toBe(3);
      const again = await rawGet(asset, { 'accept-encoding': 'br', 'if-none-match': br.headers.etag! });
      expect(again.status, asset).toBe(304);
      expect(again.body.length).toBe(0);
    }
  });

  it('the large script (React DOM) shrinks to well under a third', async () => {
    const assets = await assetsOfHome();
    const sizes = await Promise.all(
      assets
        .filter((a) => a.endsWith('.js'))
        .map(async (a) => ({
          plain: (await rawGet(a)).body.length,
          br: (await rawGet(a, { 'accept-encoding': 'br' })).body.length,
        })),
    );
    const largest = sizes.sort((a, b) => b.plain - a.plain)[0]!;
    expect(largest.br).toBeLessThan(largest.plain / 3);
  });

  it('a client refusing both codings gets the file as it is', async () => {
    const [asset] = await assetsOfHome();
    const answer = await rawGet(asset!, { 'accept-encoding': 'br;q=0, gzip;q=0' });
    expect(answer.headers['content-encoding']).toBeUndefined();
    expect(answer.body.equals((await rawGet(asset!)).body)).toBe(true);
  });
});

describe('uploaded PDFs resume', () => {
  let link: string;
  let pdf: Buffer;

  beforeAll(async () => {
    const auth = bearer(await loginAsAdmin(server));
    pdf = makePdf('Byte ranges '.repeat(200));
    const answer = await uploadPdf(server, { data: pdf, name: 'ranges.pdf', type: 'application/pdf' }, auth);
    expect(answer.status, answer.text).toBe(201);
    link = new URL((answer.body as Json).link as string, server.origin).pathname;
  });

  it('says it takes byte ranges and gives a strong validator', async () => {
    const whole = await rawGet(link);
    expect(whole.status).toBe(200);
    expect(whole.headers['accept-ranges']).toBe('bytes');
    expect(whole.headers.etag).toMatch(/^"[^"]+"$/);
    expect(whole.body.equals(pdf)).toBe(true);
  });

  it('answers bytes=a-b, bytes=a- and bytes=-n with 206 and Content-Range', async () => {
    const size = pdf.length;
    for (const [range, start, end] of [
      ['bytes=0-99', 0, 99],
      ['bytes=100-', 100, size - 1],
      ['bytes=-50', size - 50, size - 1],
      ['bytes=10-999999', 10, size - 1],
    ] as const) {
      const part = await rawGet(link, { range });
      expect(part.status, range).toBe(206);
      expect(part.headers['content-range'], range).toBe(`bytes ${start}-${end}/${size}`);
      expect(part.headers['content-length'], range).toBe(String(end - start + 1));
      expect(part.headers['content-type'], range).toBe('application/pdf');
      expect(part.headers['content-disposition'], range).toMatch(/^attachment;/);
      expect(part.headers['content-security-policy'], range).toMatch(/sandbox/);
      expect(part.body.equals(pdf.subarray(start, end + 1)), range).toBe(true);
    }
    const head = await rawGet(link, { range: 'bytes=0-9' }, 'HEAD');
    expect(head.status).toBe(206);
    expect(head.headers['content-length']).toBe('10');
  });

  it('answers 416 for a range past the end', async () => {
    const answer = await rawGet(link, { range: `bytes=${pdf.length}-` });
    expect(answer.status).toBe(416);
    expect(answer.headers['content-range']).toBe(`bytes */${pdf.length}`);
    expect(answer.body.length).toBe(0);
  });

  it('honours If-Range: the range for the same file, the whole file otherwise', async () => {
    const { etag, 'last-modified': lastModified } = (await rawGet(link)).headers;
    const same = await rawGet(link, { range: 'bytes=0-9', 'if-range': etag! });
    expect(same.status).toBe(206);
    expect(same.body.equals(pdf.subarray(0, 10))).toBe(true);
    const changed = await rawGet(link, { range: 'bytes=0-9', 'if-range': '"another-version"' });
    expect(changed.status).toBe(200);
    expect(changed.body.equals(pdf)).toBe(true);
    const weak = await rawGet(link, { range: 'bytes=0-9', 'if-range': `W/${etag!}` });
    expect(weak.status).toBe(200);
    expect(lastModified).toBeTruthy();
  });

  it('still answers 304 to its ETag', async () => {
    const { etag } = (await rawGet(link)).headers;
    expect((await rawGet(link, { 'if-none-match': etag! })).status).toBe(304);
  });
});

describe('pages for things that do not exist', () => {
  it('an unknown category shows the empty-category text with 404, and 200 such URLs store nothing', async () => {
    const before = storedPageCount();
    expect(before).toBeGreaterThan(0);
    for (let i = 0; i < 200; i++) {
      const answer = await rawGet(`/blogs?category=${900_000 + i}`);
      expect(answer.status).toBe(404);
      if (i === 0) {
        expect(answer.headers['content-type']).toMatch(/^text\/html/);
        expect(answer.body.toString()).toContain('<h1 class="page-heading" dir="auto">No articles found in this category</h1>');
      }
    }
    expect(storedPageCount()).toBe(before);
    // A page beyond the last of the list or the home page is a 404 as well.
    expect((await rawGet('/blogs?page=99999')).status).toBe(404);
    expect((await rawGet('/?page=99999')).status).toBe(404);
    expect(storedPageCount()).toBe(before);
  });

  it('an empty site still answers its list and home page with 200 and "No articles found"', async () => {
    const empty = await startServer({ env: { SEED_DEMO: 'false' } });
    try {
      for (const urlPath of ['/blogs', '/']) {
        const answer = await fetch(empty.url(urlPath));
        expect(answer.status, urlPath).toBe(200);
        expect(await answer.text(), urlPath).toContain('No articles found');
      }
    } finally {
      await empty.stop();
    }
  });
});
