import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.ts';
import { IMPORT_LIMITS, IMPORT_MESSAGES } from './limits.ts';
import { parseWxr, readWxrFile } from './wxr-parser.ts';
import { mapWxr } from './wxr-map.ts';
import { wxrDocument } from './wxr-test-file.ts';

function refusedWith(run: () => unknown): AppError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return error as AppError;
  }
  throw new Error('the file was not refused');
}

describe('parseWxr', () => {
  it('reads a WXR 1.1 file (the export of WordPress 3.x) like a 1.2 one', () => {
    const item = `<item><title>Old</title><wp:post_id>4</wp:post_id><wp:post_type>post</wp:post_type><wp:status>publish</wp:status>
      <wp:post_date_gmt>2012-01-02 03:04:05</wp:post_date_gmt><excerpt:encoded><![CDATA[Short]]></excerpt:encoded>
      <category domain="category" nicename="physics"><![CDATA[Physics]]></category></item>`;
    const older = wxrDocument(item)
      .replaceAll('/export/1.2/', '/export/1.1/')
      .replace('<wp:wxr_version>1.2', '<wp:wxr_version>1.1');
    expect(older).toContain('http://wordpress.org/export/1.1/');
    const [parsed] = parseWxr(older).items;
    expect(parsed).toMatchObject({
      title: 'Old',
      postId: '4',
      postType: 'post',
      postDateGmt: '2012-01-02 03:04:05',
      excerpt: 'Short',
    });
    const [article] = mapWxr(parseWxr(older)).articles;
    expect(article).toMatchObject({ createdAt: '2012-01-02T03:04:05.000Z', category: 'Physics', status: 'published' });
    expect(article!.notes).toContain('its hand-written excerpt was not kept (cards here show the opening of the text)');
  });

  it('reads posts, their categories, meta and comments', () => {
    const file = parseWxr(
      wxrDocument(`<item><title>Hello</title><wp:post_id>7</wp:post_id><wp:post_type>post</wp:post_type>
        <category domain="category" nicename="maths"><![CDATA[Maths]]></category>
        <wp:postmeta><wp:meta_key>_thumbnail_id</wp:meta_key><wp:meta_value><![CDATA[9]]></wp:meta_value></wp:postmeta>
        <wp:comment><wp:comment_id>3</wp:comment_id><wp:comment_author><![CDATA[Ann]]></wp:comment_author><wp:comment_approved>1</wp:comment_approved></wp:comment>
      </item>`),
    );
    expect(file.baseBlogUrl).toBe('https://old.example');
    expect(file.items).toHaveLength(1);
    const [item] = file.items;
    expect(item!.title).toBe('Hello');
    expect(item!.categories).toEqual([{ domain: 'category', nicename: 'maths', name: 'Maths' }]);
    expect(item!.meta.get('_thumbnail_id')).toBe('9');
    expect(item!.comments[0]).toMatchObject({ id: '3', author: 'Ann', approved: '1' });
  });

  it('keeps unusual text exactly: emoji, right-to-left, zero-width and combining characters, CDATA edges', () => {
    const title = 'Ünïcode 👩🏽‍🔬 مرحبا بالعالم ‏שלום‎ zero\u200bwidth e\u0301 ﷽';
    // A CDATA section cannot hold "]]>", so WordPress splits it: "]]]]><![CDATA[>".
    const content = 'ends with ]]]]><![CDATA[> and &lt;kept&gt; &amp; as written';
    const file = parseWxr(
      wxrDocument(
        `<item><title><![CDATA[${title}]]></title><content:encoded><![CDATA[${content}]]></content:encoded><excerpt:encoded><![CDATA[]]>&amp;<![CDATA[]]></excerpt:encoded></item>`,
      ),
    );
    expect(file.items[0]!.title).toBe(title);
    expect(file.items[0]!.content).toBe('ends with ]]> and &lt;kept&gt; &amp; as written');
    expect(file.items[0]!.excerpt).toBe('&');
  });

  it('takes a title as WordPress shows it: its markup dropped and its entities read (the theme unit test data has both)', () => {
    const post = (id: number, title: string) =>
      `<item><title>${title}</title><wp:post_id>${id}</wp:post_id><wp:post_type>post</wp:post_type><wp:status>publish</wp:status>
<wp:post_date_gmt>2024-01-0${id} 10:00:00</wp:post_date_gmt><content:encoded><![CDATA[<p>Text</p>]]></content:encoded></item>`;
    const unusual = 'Ünïcode 👩🏽‍🔬 مرحبا ‏שלום‎ zero\u200bwidth e\u0301';
    const { articles } = mapWxr(
      parseWxr(
        wxrDocument(
          [
            post(1, '<![CDATA[Media &amp; Text]]>'),
            post(2, '<![CDATA[Markup: Title <em>With</em> <b>Mark<sup>up</sup></b>]]>'),
            post(3, 'Special ~`!@#$%^&amp;*()-_=+{}[]/\\;:&#039;&quot;?,.&gt;'),
            post(4, `<![CDATA[${unusual}]]>`),
            post(5, '<![CDATA[a < b &#187; c]]>'),
          ].join('\n'),
        ),
      ),
    );
    expect(articles.map((a) => a.title)).toEqual([
      'Media & Text',
      'Markup: Title With Markup',
      'Special ~`!@#$%^&*()-_=+{}[]/\\;:\'"?,.>',
      unusual,
      'a < b » c',
    ]);
  });

  it('refuses a DOCTYPE: entity expansion (a billion laughs) and external entities never run', () => {
    const laughs = `<?xml version="1.0"?><!DOCTYPE rss [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]><rss><channel><title>&lol2;</title></channel></rss>`;
    expect(refusedWith(() => parseWxr(laughs)).message).toBe(IMPORT_MESSAGES.doctype);
    const external = `<?xml version="1.0"?><!DOCTYPE rss [<!ENTITY x SYSTEM "file:///etc/passwd">]><rss><channel><title>&x;</title></channel></rss>`;
    expect(refusedWith(() => parseWxr(external)).message).toBe(IMPORT_MESSAGES.doctype);
  });

  it('refuses an entity it does not know and XML that is not well formed', () => {
    expect(refusedWith(() => parseWxr(wxrDocument('<item><title>&passwd;</title></item>'))).message).toMatch(/not well-formed/);
    expect(refusedWith(() => parseWxr(wxrDocument('<item><title>open'))).message).toMatch(/not well-formed/);
  });

  it('refuses 10,000 levels of nesting', () => {
    const deep = `<rss><channel>${'<x>'.repeat(10_000)}${'</x>'.repeat(10_000)}</channel></rss>`;
    expect(refusedWith(() => parseWxr(deep)).message).toBe(IMPORT_MESSAGES.tooDeep);
  });

  it('refuses a file that is not a WordPress export', () => {
    expect(refusedWith(() => parseWxr('<html><body>hi</body></html>')).message).toBe(IMPORT_MESSAGES.notWxr);
  });

  it('refuses a file past the size limit by its size, before reading it', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wxr-size-'));
    const file = path.join(dir, 'huge.xml');
    // Sparse: 2 GB on paper, nothing on disk.
    fs.writeFileSync(file, '');
    fs.truncateSync(file, 2 * 1024 * 1024 * 1024);
    try {
      await expect(readWxrFile(file)).rejects.toMatchObject({ code: 'too_large' });
      expect(IMPORT_LIMITS.fileBytes).toBeLessThan(2 * 1024 * 1024 * 1024);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
