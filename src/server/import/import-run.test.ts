import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type SQLite from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../db/client.ts';
import { openMigratedDatabase } from '../../../tests/support/db.ts';
import { readImportFile } from './import-file.ts';
import { runImport, type ImportTarget } from './import-run.ts';
import { folderSource } from './upload-source.ts';
import { wxrDocument } from './wxr-test-file.ts';

const FIXTURES = path.resolve(import.meta.dirname, '../../../tests/fixtures/import/wordpress');
const THEME_DATA = path.join(FIXTURES, 'themeunittestdata.wordpress.xml');
const saver = { id: null, username: 'test import' };

let db: Db;
let close: () => void;
let sqlite: SQLite.Database;
let target: ImportTarget;
let dir: string;

beforeEach(async () => {
  ({ db, close, sqlite } = await openMigratedDatabase());
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'import-run-'));
  target = { db, uploadsDir: path.join(dir, 'uploads'), revisionsKeep: 20 };
});
afterEach(() => {
  close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const blogByTitle = (title: string) =>
  db
    .selectFrom('blogs')
    .leftJoin('categories', 'categories.id', 'blogs.category_id')
    .select([
      'blogs.id',
      'blogs.title',
      'blogs.author',
      'blogs.content',
      'blogs.created_at',
      'blogs.status',
      'blogs.publish_at',
      'blogs.image',
      'categories.name as category',
    ])
    .where('blogs.title', '=', title)
    .executeTakeFirstOrThrow();
const count = (table: 'blogs' | 'comments' | 'categories' | 'redirects' | 'blog_revisions' | 'uploads') =>
  Promise.resolve((sqlite.prepare(`select count(*) as n from ${table}`).get() as { n: number }).n);

describe('importing the WordPress theme unit test data', () => {
  it('brings every post with its title, date, category, comments and featured image', async () => {
    const site = await readImportFile(THEME_DATA);
    const { report } = await runImport(target, site, {
      dryRun: false,
      files: folderSource(path.join(FIXTURES, 'uploads')),
      saver,
    });
    expect(report.failed).toEqual([]);
    expect(report.imported).toHaveLength(58);
    expect(report.skipped.filter((l) => /a page/.test(l.reason ?? ''))).toHaveLength(20);
    expect(await count('blogs')).toBe(58);
    expect(await count('blog_revisions')).toBe(58);
    expect(report.comments).toEqual({ imported: 24, alreadyThere: 0, refused: 0 });

    const comments = await blogByTitle('Template: Comments');
    expect(comments).toMatchObject({
      author: 'Theme Buster',
      created_at: '2012-01-03T17:11:37.000Z',
      status: 'published',
      category: 'Classic',
    });
    const its = await db
      .selectFrom('comments')
      .select(['username', 'created_at', 'status', 'comment'])
      .where('blog_id', '=', comments.id)
      .orderBy('id')
      .execute();
    expect(its).toHaveLength(20);
    expect(its[0]).toMatchObject({
      username: 'John Γιάννης Doe Κάποιος',
      created_at: '2012-09-03T17:18:04.000Z',
      status: 'approved',
    });
    expect(its.filter((c) => c.status === 'pending')).toHaveLength(1);

    expect(await blogByTitle('Draft')).toMatchObject({ status: 'draft', created_at: '2013-04-09T18:20:39.000Z' });
    expect(await blogByTitle('Scheduled')).toMatchObject({
      status: 'scheduled',
      publish_at: '2030-01-01T19:00:18.000Z',
      category: 'Unpublished',
    });
    // Password-protected there: not made public here.
    expect(await blogByTitle('Template: Password Protected (the password is "enter")')).toMatchObject({ status: 'draft' });

    // The one picture in the uploads folder is the featured image of this post, stored as WebP.
    const featured = await blogByTitle('WP 6.1 Theme block category');
    expect(featured.image).toMatch(/^\/uploads\/images\/[a-z0-9]+-w\d+\.webp$/);
    expect(fs.existsSync(path.join(target.uploadsDir, featured.image!.replace('/uploads/', '')))).toBe(true);
    // Block comments are gone; the content went through the editor's sanitizer (no class attributes).
    expect(featured.content).not.toMatch(/<!--|class=/);
    // A missing file is reported, not fatal.
    expect(report.imported.flatMap((l) => l.notes).some((n) => /not in the uploads folder/.test(n))).toBe(true);

    // The old addresses: the permalink, ?p= and the slug.
    const redirects = await db.selectFrom('redirects').select('path').where('blog_id', '=', comments.id).execute();
    expect(redirects.map((r) => r.path).sort()).toEqual(['/2012/01/03/template-comments', '/?p=1148', '/template-comments']);
  });

  it("offers the old site's About page as this site's, keeps it on a second run, and never replaces an edited one", async () => {
    const site = await readImportFile(THEME_DATA);
    const options = { dryRun: false, files: null, saver };
    const first = await runImport(target, site, options);
    expect(first.report.infoPages).toEqual([{ slug: 'about', title: 'About The Tests', outcome: 'imported' }]);
    const about = () =>
      sqlite.prepare("select content from info_pages where slug = 'about'").get() as { content: string } | undefined;
    expect(about()!.content).toContain('WordPress Theme Development Resources');
    const revisions = () =>
      (
        sqlite.prepare("select action from info_page_revisions where slug = 'about' order by id").all() as Array<{
          action: string;
        }>
      ).map((r) => r.action);
    expect(revisions()).toEqual(['builtin', 'update']);

    const again = await runImport(target, site, options);
    expect(again.report.infoPages).toEqual([{ slug: 'about', title: 'About The Tests', outcome: 'unchanged' }]);
    expect(revisions()).toEqual(['builtin', 'update']);

    sqlite.prepare("update info_pages set content = '<p>Our own words</p>' where slug = 'about'").run();
    const edited = await runImport(target, site, options);
    expect(edited.report.infoPages[0]).toMatchObject({ outcome: 'kept', reason: expect.stringMatching(/already edited/) });
    expect(about()!.content).toBe('<p>Our own words</p>');
  });

  it('changes nothing when the same file is imported again', async () => {
    const site = await readImportFile(THEME_DATA);
    const files = folderSource(path.join(FIXTURES, 'uploads'));
    await runImport(target, site, { dryRun: false, files, saver });
    const before = [
      await count('blogs'),
      await count('comments'),
      await count('categories'),
      await count('blog_revisions'),
      await count('uploads'),
    ];
    const { report } = await runImport(target, site, { dryRun: false, files, saver });
    expect(report.imported).toEqual([]);
    expect(report.updated).toEqual([]);
    expect(report.skipped.filter((l) => l.id !== undefined)).toHaveLength(58);
    expect([
      await count('blogs'),
      await count('comments'),
      await count('categories'),
      await count('blog_revisions'),
      await count('uploads'),
    ]).toEqual(before);
  });

  it('writes nothing in a dry run, and reports what it would do', async () => {
    const { report } = await runImport(target, await readImportFile(THEME_DATA), { dryRun: true, files: null, saver });
    expect(report.imported).toHaveLength(58);
    expect(report.comments.imported).toBe(24);
    for (const table of ['blogs', 'comments', 'categories', 'redirects'] as const) expect(await count(table)).toBe(0);
  });
});

describe('importing unusual files', () => {
  const write = (name: string, text: string) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, text);
    return file;
  };

  it('keeps unusual text unchanged through the sanitizer', async () => {
    const title = 'Ünïcode 👩🏽‍🔬 مرحبا ‏שלום‎ zero\u200bwidth e\u0301';
    const body = 'Emoji 🧪, RTL عربي, combining a\u0308o\u0301, joiner \u200d here';
    const file = write(
      'unusual.xml',
      wxrDocument(`<item><title><![CDATA[${title}]]></title><dc:creator>ann</dc:creator><wp:post_id>5</wp:post_id><wp:post_type>post</wp:post_type><wp:status>publish</wp:status>
        <wp:post_date_gmt>2024-06-01 10:00:00</wp:post_date_gmt><content:encoded><![CDATA[${body}

Ends ]]]]><![CDATA[> here [gallery ids="1,2"]]]></content:encoded></item>`),
    );
    const { report } = await runImport(target, await readImportFile(file), { dryRun: false, files: null, saver });
    expect(report.failed).toEqual([]);
    const blog = await blogByTitle(title);
    expect(blog.author).toBe('Ann Author');
    expect(blog.category).toBe('Uncategorized');
    // Paragraphs as WordPress shows them; the shortcode stays as text.
    expect(blog.content).toBe(`<p>${body}</p>\n<p>Ends ]]&gt; here [gallery ids="1,2"]</p>`);
  });

  it('stales the Older and Newer links of the articles an imported one lands between', async () => {
    const post = (id: number, title: string, date: string) =>
      `<item><title>${title}</title><wp:post_id>${id}</wp:post_id><wp:post_type>post</wp:post_type><wp:status>publish</wp:status>
        <wp:post_date_gmt>${date}</wp:post_date_gmt><content:encoded><![CDATA[Text]]></content:encoded></item>`;
    const first = write(
      'first.xml',
      wxrDocument(post(1, 'Early', '2024-01-01 10:00:00') + post(3, 'Late', '2024-03-01 10:00:00')),
    );
    await runImport(target, await readImportFile(first), { dryRun: false, files: null, saver });
    const [early, late] = [await blogByTitle('Early'), await blogByTitle('Late')];
    const second = write('second.xml', wxrDocument(post(2, 'Middle', '2024-02-01 10:00:00')));
    const { tags } = await runImport(target, await readImportFile(second), { dryRun: false, files: null, saver });
    expect(tags).toContainEqual({ kind: 'neighbours', id: early.id });
    expect(tags).toContainEqual({ kind: 'neighbours', id: late.id });
  });

  it('never reads a file outside the uploads folder, whatever the export says', async () => {
    fs.mkdirSync(path.join(dir, 'up'));
    fs.copyFileSync(path.join(FIXTURES, 'uploads/2008/06/dsc20050102_192118_51.jpg'), path.join(dir, 'secret.jpg'));
    const file = write(
      'slip.xml',
      wxrDocument(`<item><title>Slip</title><wp:post_id>5</wp:post_id><wp:post_type>post</wp:post_type><wp:status>publish</wp:status>
        <wp:post_date_gmt>2024-06-01 10:00:00</wp:post_date_gmt><content:encoded><![CDATA[<img src="https://old.example/wp-content/uploads/../../secret.jpg"><img src="https://old.example/wp-content/uploads/%2e%2e/secret.jpg">]]></content:encoded></item>`),
    );
    await runImport(target, await readImportFile(file), { dryRun: false, files: folderSource(path.join(dir, 'up')), saver });
    expect(await count('uploads')).toBe(0);
  });

  it('refuses a hostile file with nothing written', async () => {
    const bomb = write(
      'bomb.xml',
      `<?xml version="1.0"?><!DOCTYPE rss [<!ENTITY a "aaaaaaaaaa">]><rss><channel><title>&a;</title></channel></rss>`,
    );
    await expect(readImportFile(bomb)).rejects.toMatchObject({ code: 'unprocessable' });
    const deepJson = write('deep.json', `{"db":${'['.repeat(10_000)}${']'.repeat(10_000)}}`);
    await expect(readImportFile(deepJson)).rejects.toMatchObject({ code: 'unprocessable' });
    const named = write('../../x'.replace(/\.\.\//g, 'dotdot-'), 'neither');
    await expect(readImportFile(named)).rejects.toMatchObject({ code: 'unprocessable' });
    expect(await count('blogs')).toBe(0);
  });
});
