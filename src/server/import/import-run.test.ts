import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { blogByTitle as blogOf, countRows, importTestSite } from '../../../tests/support/import-test-site.ts';
import { readImportFile } from './import-file.ts';
import { runImport } from './import-run.ts';
import { folderSource } from './upload-source.ts';
import { wxrDocument } from './wxr-test-file.ts';
import { drawInclinedPlane } from '../../../tests/support/import-fixture.ts';

const saver = { id: null, username: 'test import' };

const fixture = importTestSite('import-run-');
const blogByTitle = (title: string) => blogOf(fixture.db, title);
const count = (table: Parameters<typeof countRows>[1]) => countRows(fixture.sqlite, table);

describe('importing unusual files', () => {
  const write = (name: string, text: string) => {
    const file = path.join(fixture.dir, name);
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
    const { report } = await runImport(fixture.target, await readImportFile(file), { dryRun: false, files: null, saver });
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
    await runImport(fixture.target, await readImportFile(first), { dryRun: false, files: null, saver });
    const [early, late] = [await blogByTitle('Early'), await blogByTitle('Late')];
    const second = write('second.xml', wxrDocument(post(2, 'Middle', '2024-02-01 10:00:00')));
    const { tags } = await runImport(fixture.target, await readImportFile(second), { dryRun: false, files: null, saver });
    expect(tags).toContainEqual({ kind: 'neighbours', id: early.id });
    expect(tags).toContainEqual({ kind: 'neighbours', id: late.id });
  });

  it('never reads a file outside the uploads folder, whatever the export says', async () => {
    fs.mkdirSync(path.join(fixture.dir, 'up'));
    fs.writeFileSync(path.join(fixture.dir, 'secret.jpg'), await drawInclinedPlane());
    const file = write(
      'slip.xml',
      wxrDocument(`<item><title>Slip</title><wp:post_id>5</wp:post_id><wp:post_type>post</wp:post_type><wp:status>publish</wp:status>
        <wp:post_date_gmt>2024-06-01 10:00:00</wp:post_date_gmt><content:encoded><![CDATA[<img src="https://old.example/wp-content/uploads/../../secret.jpg"><img src="https://old.example/wp-content/uploads/%2e%2e/secret.jpg">]]></content:encoded></item>`),
    );
    await runImport(fixture.target, await readImportFile(file), {
      dryRun: false,
      files: folderSource(path.join(fixture.dir, 'up')),
      saver,
    });
    expect(await count('uploads')).toBe(0);
  });

  it("stores an original once when the text names one of WordPress's resized copies and the folder has only the original", async () => {
    const uploads = path.join(fixture.dir, 'up');
    fs.mkdirSync(path.join(uploads, '2019/03'), { recursive: true });
    fs.writeFileSync(path.join(uploads, '2019/03/plane.jpg'), await drawInclinedPlane());
    const file = write(
      'sized.xml',
      wxrDocument(`<item><title>Resized</title><wp:post_id>5</wp:post_id><wp:post_type>post</wp:post_type><wp:status>publish</wp:status>
        <wp:post_date_gmt>2024-06-01 10:00:00</wp:post_date_gmt><wp:postmeta><wp:meta_key>_thumbnail_id</wp:meta_key><wp:meta_value>6</wp:meta_value></wp:postmeta>
        <content:encoded><![CDATA[<img src="https://old.example/wp-content/uploads/2019/03/plane-300x200.jpg">]]></content:encoded></item>
        <item><title>plane</title><wp:post_id>6</wp:post_id><wp:post_type>attachment</wp:post_type>
        <wp:attachment_url>https://old.example/wp-content/uploads/2019/03/plane.jpg</wp:attachment_url></item>`),
    );
    const site = await readImportFile(file);
    await runImport(fixture.target, site, { dryRun: false, files: folderSource(uploads), saver });
    const blog = await blogByTitle('Resized');
    expect(blog.image).toMatch(/^\/uploads\/images\//);
    expect(blog.content).toContain(`<img src="${blog.image!}"`);
    const copies = fixture.sqlite.prepare('select path from uploads').all() as Array<{ path: string }>;
    expect(new Set(copies.map((c) => c.path.replace(/-w\d+\.webp$/, '')))).toEqual(
      new Set([blog.image!.replace(/^\/uploads\/|-w\d+\.webp$/g, '')]),
    );
    // A later run without the folder finds both addresses already stored: nothing to update.
    const again = await runImport(fixture.target, site, { dryRun: false, files: null, saver });
    expect([again.report.updated, again.report.unchanged.map((l) => l.title)]).toEqual([[], ['Resized']]);
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

describe('a featured image on another site', () => {
  it('is named as on another site, not looked for in the uploads folder', async () => {
    const article = (sourceId: string, imageUrl: string) => ({
      sourceId,
      title: `Remote picture ${sourceId}`,
      author: 'Ann Author',
      html: '<p>Text</p>',
      createdAt: '2024-06-01T10:00:00.000Z',
      status: 'published' as const,
      publishAt: null,
      category: null,
      otherTerms: [],
      imageUrl,
      comments: [],
      oldPaths: [],
      notes: [],
    });
    const site = {
      source: 'ghost:Remote pictures',
      format: 'ghost' as const,
      origin: 'https://ghost-site.invalid',
      articles: [
        article('r1', 'https://images.unsplash.com/photo-1500000000000-abc?w=2000'),
        article('r2', 'https://ghost-site.invalid/content/images/2024/06/own.jpg'),
      ],
      skipped: [],
    };
    const { report } = await runImport(fixture.target, site, { dryRun: false, files: null, saver });
    expect(report.imported.map((line) => line.notes)).toEqual([
      [
        "featured image https://images.unsplash.com/photo-1500000000000-abc?w=2000: on another site (images.unsplash.com), not among the old site's uploads; add it in the editor",
      ],
      ['featured image 2024/06/own.jpg: no uploads folder was given'],
    ]);
  });
});
