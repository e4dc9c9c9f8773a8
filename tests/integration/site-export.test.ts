import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, untilPrerendered, type TestServer } from '../support/server.ts';
import { loginAsAdmin, bearer } from '../support/auth.ts';
import { blogBodyFrom, buildCommentBody, uniqueName } from '../support/builders.ts';
import { call, sendJson, untilRefreshDrainedEverywhere, type Json } from './http-support.ts';
import { answersOf, comparable, publicAddresses, runScript, type Answered } from './site-export-support.ts';
import { readSiteArchive } from '../../src/server/export/site-restore.ts';
import { wxrDocument } from '../../src/server/import/wxr-test-file.ts';
import { STUDY_SITE_WXR } from '../support/import-fixture.ts';

/**
 * The round trip of issue "come and go freely": a site with the demo content and an admin's
 * edits is exported with `npm run export` while it serves, read back with `npm run import` into
 * a new empty site, and every public address answers the same: the same status, the same HTML,
 * the same bytes of every upload. Then an imported WordPress site's old addresses answer with a
 * 301 to their articles.
 */

let source: TestServer | undefined;
let target: TestServer | undefined;
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'site-export-it-'));

afterAll(async () => {
  await source?.stop();
  await target?.stop();
  fs.rmSync(work, { recursive: true, force: true });
});

describe('export and import back into an empty site', () => {
  let before: Map<string, Answered>;
  let addresses: string[];
  let archive: string;

  beforeAll(async () => {
    source = await startServer();
    await untilPrerendered(source);
    const admin = bearer(await loginAsAdmin(source));
    // An edited article (a revision), a comment, About text and a setting, beside the demo content.
    const blogs = (await call(source, '/api/blogs?limit=3')).body as Json[];
    const edited = blogs[0]!;
    expect(
      (
        await sendJson(
          source,
          'PUT',
          `/api/blogs/${String(edited.id)}`,
          blogBodyFrom(edited, { title: uniqueName('Edited before export ✓ مرحبا') }),
          admin,
        )
      ).status,
    ).toBe(200);
    expect(
      (
        await sendJson(
          source,
          'POST',
          `/api/blogs/${String(blogs[1]!.id)}/comment`,
          buildCommentBody({ comment: 'Kept through the round trip 👍' }),
        )
      ).status,
    ).toBeLessThan(300);
    expect(
      (
        await sendJson(
          source,
          'PUT',
          '/api/admin/pages/about',
          { content: '<p>About this site: عربى, emoji 📚, e\u0301.</p>', content_source: '' },
          admin,
        )
      ).status,
    ).toBe(200);
    expect((await sendJson(source, 'PUT', '/api/admin/settings', { site_title: 'Round trip ✓' }, admin)).status).toBe(200);

    // The setting reaches every page through the background refresh: the pages are taken when it is done.
    await untilRefreshDrainedEverywhere(source, admin);
    addresses = await publicAddresses(source);
    before = await answersOf(source, addresses);
    expect(before.get('/blog/1')!.body.toString()).toContain('Round trip ✓');
    archive = path.join(work, 'site-export.tar.gz');
    const exported = await runScript('scripts/export.ts', ['--out', archive], source);
    expect(exported.code, exported.output).toBe(0);
    const port = new URL(source.origin).port;
    await source.stop();

    // A new site: a new data folder, no demo content, the same address (canonical links name it).
    const dir = path.join(work, 'target');
    fs.mkdirSync(dir);
    const empty = { dir, databasePath: path.join(dir, 'site.sqlite'), uploadsDir: path.join(dir, 'uploads') };
    const imported = await runScript('scripts/import.ts', [archive], empty);
    expect(imported.code, imported.output).toBe(0);
    expect(imported.output).toMatch(/Restored from the export archive/);
    target = await startServer({ dir, env: { PORT: port, SEED_DEMO: 'false' } });
  });

  it('answers every public address with the same page and every upload with the same bytes', async () => {
    expect(addresses.filter((a) => a.startsWith('/blog/')).length).toBeGreaterThan(20);
    expect(addresses.filter((a) => a.startsWith('/uploads/')).length).toBeGreaterThan(5);
    expect(addresses.filter((a) => a.startsWith('/blogs?category=')).length).toBeGreaterThan(3);
    const after = await answersOf(target!, addresses);
    const differing: string[] = [];
    for (const address of addresses) {
      const a = before.get(address)!;
      const b = after.get(address)!;
      if (a.status !== b.status || comparable(a) !== comparable(b)) differing.push(address);
    }
    if (differing.length) {
      const first = differing[0]!;
      const a = comparable(before.get(first)!);
      const b = comparable(after.get(first)!);
      let at = 0;
      while (at < a.length && a[at] === b[at]) at++;
      expect.fail(
        `${differing.length} of ${addresses.length} differ: ${differing.join(' ')}\n${first} at ${at}:\n${JSON.stringify(a.slice(Math.max(0, at - 150), at + 150))}\n---\n${JSON.stringify(b.slice(Math.max(0, at - 150), at + 150))}`,
      );
    }
    expect(before.get('/about')!.body.toString()).toContain('emoji 📚');
  });

  it('refuses to read the archive into a site that has content, with nothing written', async () => {
    const again = await runScript('scripts/import.ts', [archive], target!);
    expect(again.code).toBe(1);
    expect(again.output).toMatch(/empty site only/);
  });
});

describe('old addresses of an imported WordPress site', () => {
  it('answer with a 301 to their articles: /?p=ID, /YYYY/MM/slug/ and /slug/', async () => {
    const imported = await runScript('scripts/import.ts', [STUDY_SITE_WXR], target!);
    expect(imported.code, imported.output).toBe(0);
    expect(imported.output).toMatch(/imported 9, updated 0, unchanged 0, skipped 2, failed 0/);
    // Post 11 of the export, whose permalink is /2019/03/newtons-laws-of-motion/.
    const blogs = (await call(target!, `/api/blogs?limit=100`)).body as Json[];
    const article = blogs.find((b) => b.title === "Newton's laws of motion");
    expect(article).toBeDefined();
    for (const old of [
      '/?p=11',
      '/2019/03/newtons-laws-of-motion/',
      '/2019/03/Newtons-Laws-Of-Motion',
      '/newtons-laws-of-motion/',
      '/newtons-laws-of-motion',
    ]) {
      const response = await fetch(target!.url(old), { redirect: 'manual' });
      expect(response.status, old).toBe(301);
      expect(response.headers.get('location'), old).toBe(`/blog/${String(article!.id)}`);
    }
    // Not an old address: the home page and the 404 page as before.
    expect((await fetch(target!.url('/?p=999999'), { redirect: 'manual' })).status).toBe(200);
    expect((await fetch(target!.url('/no-such-old-slug/'), { redirect: 'manual' })).status).toBe(404);
  });
});

describe('unusual text from a WordPress file', () => {
  it('comes through the import unchanged and renders in the article page', async () => {
    const title = 'Ünïcode 👩🏽‍🔬 مرحبا ‏שלום‎ zero\u200bwidth e\u0301';
    const body = 'Emoji 🧪, RTL عربي, combining a\u0308o\u0301, joiner \u200d here';
    const file = path.join(work, 'unusual.xml');
    fs.writeFileSync(
      file,
      wxrDocument(
        `<item><title><![CDATA[${title}]]></title><wp:post_id>9001</wp:post_id><wp:post_type>post</wp:post_type><wp:status>publish</wp:status>
        <wp:post_date_gmt>2024-06-01 10:00:00</wp:post_date_gmt><content:encoded><![CDATA[${body}

Ends ]]]]><![CDATA[> here]]></content:encoded></item>`,
        'https://unusual.example',
      ),
    );
    const imported = await runScript('scripts/import.ts', [file], target!);
    expect(imported.code, imported.output).toBe(0);
    const redirect = await fetch(target!.url('/?p=9001'), { redirect: 'manual' });
    expect(redirect.status).toBe(301);
    const html = await (await fetch(target!.url(redirect.headers.get('location')!))).text();
    expect(html).toContain(title);
    expect(html).toContain(body);
    expect(html).toContain('Ends ]]&gt; here');
  });
});

describe('the admin export and import endpoints', () => {
  it('download the whole site and its Markdown export to an admin only', async () => {
    expect((await fetch(target!.url('/api/admin/export'))).status).toBe(401);
    const admin = bearer(await loginAsAdmin(target!));
    const response = await fetch(target!.url('/api/admin/export'), { headers: admin });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/gzip');
    expect(response.headers.get('content-disposition')).toMatch(
      /^attachment; filename="site-export-\d{4}-\d{2}-\d{2}\.tar\.gz"$/,
    );
    const file = path.join(work, 'downloaded.tar.gz');
    fs.writeFileSync(file, Buffer.from(await response.arrayBuffer()));
    const archive = await readSiteArchive(file);
    try {
      const blogs = (await call(target!, '/api/blogs?limit=1', { headers: admin })).headers.get('x-total-count');
      expect(archive.document.tables.blogs.length).toBeGreaterThanOrEqual(Number(blogs));
      expect(archive.document.files.length).toBeGreaterThan(5);
    } finally {
      archive.dispose();
    }
    const markdown = await fetch(target!.url('/api/admin/export?format=markdown'), { headers: admin });
    expect(markdown.status).toBe(200);
    expect(markdown.headers.get('content-disposition')).toMatch(/site-markdown-/);
    expect(Buffer.from(await markdown.arrayBuffer()).subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
  });

  it('import an uploaded file with a report, and refuse a hostile one or an archive into a full site with nothing written', async () => {
    const admin = { ...bearer(await loginAsAdmin(target!)), 'Content-Type': 'application/octet-stream' };
    const send = (body: Buffer, query = '') =>
      call(target!, `/api/admin/import${query}`, { method: 'POST', headers: admin, body: new Uint8Array(body) });
    const checked = await send(fs.readFileSync(STUDY_SITE_WXR), '?dry_run=1');
    expect(checked.status).toBe(200);
    const answer = checked.body as {
      kind: string;
      report: { dryRun: boolean; imported: unknown[]; updated: unknown[]; unchanged: unknown[]; skipped: unknown[] };
    };
    expect(answer.kind).toBe('import');
    expect(answer.report.dryRun).toBe(true);
    // Already imported above: nothing new, its nine posts already here; the post in the bin and the third page skipped.
    expect(answer.report.imported).toHaveLength(0);
    expect(answer.report.updated).toHaveLength(0);
    expect(answer.report.unchanged).toHaveLength(9);
    expect(answer.report.skipped).toHaveLength(2);

    const blogsBefore = (await call(target!, '/api/blogs?limit=1')).headers.get('x-total-count');
    const bomb = Buffer.from(
      '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;">]><rss>&lol2;</rss>',
    );
    const refused = await send(bomb);
    expect(refused.status).toBe(422);
    expect((refused.body as Json).message).toMatch(/DOCTYPE/);
    const full = await send(fs.readFileSync(path.join(work, 'site-export.tar.gz')));
    expect(full.status).toBe(422);
    expect((full.body as Json).message).toMatch(/empty site only/);
    expect((await call(target!, '/api/blogs?limit=1')).headers.get('x-total-count')).toBe(blogsBefore);
  });

  it("streams the import's progress to a client that asks, and still refuses a bad file with its own status", async () => {
    const headers = { ...bearer(await loginAsAdmin(target!)), Accept: 'application/x-ndjson, application/json' };
    const send = (body: Buffer) =>
      fetch(target!.url('/api/admin/import?dry_run=1'), { method: 'POST', headers, body: new Uint8Array(body) });
    const streamed = await send(fs.readFileSync(STUDY_SITE_WXR));
    expect(streamed.status).toBe(200);
    expect(streamed.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
    const lines = (await streamed.text())
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Json);
    expect(lines[0]).toEqual({ progress: { done: 1, total: 9 } });
    const end = lines.at(-1) as { answer: { kind: string; report: { unchanged: unknown[]; skipped: unknown[] } } };
    expect(end.answer.kind).toBe('import');
    expect([end.answer.report.unchanged, end.answer.report.skipped].map((lines) => lines.length)).toEqual([9, 2]);
    const refused = await send(Buffer.from('<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "a">]><rss>&a;</rss>'));
    expect(refused.status).toBe(422);
    expect(refused.headers.get('content-type')).toMatch(/^application\/json/);
  });
});
