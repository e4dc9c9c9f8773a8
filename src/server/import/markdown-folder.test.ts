import fs from 'node:fs';
import path from 'node:path';
import type SQLite from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openMigratedDatabase } from '../../../tests/support/db.ts';
import { makePng } from '../../../tests/support/files.ts';
import { trackTempDirs } from '../../../tests/support/temp-dirs.ts';
import type { Db } from '../db/client.ts';
import { readImportFile } from './import-file.ts';
import { runImport } from './import-run.ts';
import { splitFrontMatter } from './front-matter.ts';
import { readMarkdownFolder } from './markdown-folder.ts';
import { folderSource } from './upload-source.ts';

const tempDir = trackTempDirs('markdown-folder-');
const NOW = Date.parse('2026-06-01T00:00:00Z');

function write(root: string, files: Record<string, string | Buffer>): string {
  for (const [relative, body] of Object.entries(files)) {
    const full = path.join(root, relative);
    fs.mkdirSync(path.dirname(full), { recursive: true });
    fs.writeFileSync(full, body);
  }
  return root;
}

describe('front matter', () => {
  it('reads YAML and TOML, and stops a YAML alias bomb', () => {
    expect(splitFrontMatter('---\ntitle: "Hi: there"\ntags: [a, b]\ndraft: true\n---\nBody').fields).toEqual({
      title: 'Hi: there',
      tags: ['a', 'b'],
      draft: true,
    });
    const toml = splitFrontMatter(
      '+++\ntitle = "Über \\"x\\""\ndate = 2024-06-01T10:00:00Z\ncategories = ["Maths", "Physics"]\ndraft = false\n[params]\nx = 1\n+++\nBody',
    );
    expect(toml.fields).toEqual({
      title: 'Über "x"',
      date: '2024-06-01T10:00:00Z',
      categories: ['Maths', 'Physics'],
      draft: false,
    });
    expect(toml.body).toBe('Body');
    const bomb = `---\na: &a ["x","x","x","x","x","x","x","x","x"]\n${Array.from({ length: 30 }, (_, i) => `b${i}: [*a,*a,*a,*a,*a,*a,*a,*a,*a]`).join('\n')}\n---\n`;
    expect(() => splitFrontMatter(bomb)).toThrow(/alias/i);
  });
});

describe('Markdown folders', () => {
  it('reads a Hugo site: YAML and TOML front matter, a page bundle with its image, section list pages skipped', async () => {
    const root = write(tempDir(), {
      'content/posts/first.md':
        '---\ntitle: "Cells ✓ مرحبا"\ndate: 2024-06-02T08:30:00+02:00\ncategories: [Biology, Science]\ntags: [cells]\naliases: [/old/cells/]\n---\nA **cell** and [the second](/posts/second/).\n\n| a | b |\n|---|---|\n| 1 | 2 |\n',
      'content/posts/second/index.md':
        '+++\ntitle = "Second"\ndate = 2024-06-03\ndraft = true\nimages = ["cover.png"]\n+++\n![diagram](diagram.png)\n',
      'content/posts/second/cover.png': await makePng(4, 4),
      'content/posts/second/diagram.png': await makePng(5, 5),
      'content/posts/_index.md': '---\ntitle: Posts\n---\n',
      'content/later.md': '---\ntitle: Later\ndate: 2027-01-01\n---\nSoon.\n',
    });
    const site = readMarkdownFolder(root, NOW);
    expect(site.format).toBe('markdown');
    expect(site.skipped.map((s) => s.sourceId)).toEqual(['content/posts/_index.md']);
    const byTitle = new Map(site.articles.map((a) => [a.title, a]));
    const first = byTitle.get('Cells ✓ مرحبا')!;
    expect(first).toMatchObject({
      createdAt: '2024-06-02T06:30:00.000Z',
      status: 'published',
      category: 'Biology',
      otherTerms: ['Science', '#cells'],
    });
    expect(first.html).toContain('<strong>cell</strong>');
    expect(first.html).toContain('<table>');
    expect(first.oldPaths).toEqual(expect.arrayContaining(['/first', '/posts/first', '/old/cells']));
    const second = byTitle.get('Second')!;
    expect(second).toMatchObject({ status: 'draft', createdAt: '2024-06-03T00:00:00.000Z' });
    expect(second.imageUrl).toMatch(/\/content\/images\/content\/posts\/second\/cover\.png$/);
    expect(second.html).toMatch(
      /src="https:\/\/markdown-folder\.invalid\/content\/images\/content\/posts\/second\/diagram\.png"/,
    );
    expect(byTitle.get('Later')).toMatchObject({ status: 'scheduled', publishAt: '2027-01-01T00:00:00.000Z' });
  });

  it('reads a Jekyll site: dates and slugs from file names, _drafts as drafts, space-separated categories', () => {
    const root = write(tempDir(), {
      '_posts/2023-09-14-photosynthesis.md':
        '---\nlayout: post\ntitle: Photosynthesis\ncategories: biology plants\n---\nLight.\n',
      '_drafts/2023-10-01-respiration.markdown': '---\ntitle: Respiration\n---\nBreath.\n',
      'about.md': '---\ntitle: About\n---\nNot a post.\n',
    });
    const site = readMarkdownFolder(root, NOW);
    expect(site.articles.map((a) => [a.title, a.status, a.createdAt, a.category])).toEqual([
      ['Respiration', 'draft', '2023-10-01T00:00:00.000Z', null],
      ['Photosynthesis', 'published', '2023-09-14T00:00:00.000Z', 'biology'],
    ]);
    expect(site.articles[1]!.oldPaths).toEqual(
      expect.arrayContaining(['/2023/09/14/photosynthesis', '/2023/09/14/photosynthesis.html']),
    );
  });

  it('keeps raw HTML in a post (an embedded video) for the sanitizer, not as visible markup', () => {
    const root = write(tempDir(), {
      '_posts/2023-09-14-waves.md':
        '---\ntitle: Waves\n---\nWatch:\n\n<iframe src="https://www.youtube.com/embed/abc123" allowfullscreen></iframe>\n',
    });
    const [article] = readMarkdownFolder(root, NOW).articles;
    expect(article!.html).toContain('<iframe src="https://www.youtube.com/embed/abc123"');
    expect(article!.html).not.toContain('&lt;iframe');
  });

  it('reads an AstroPaper site: pubDatetime, tags as categories, ogImage from public/', async () => {
    const root = write(tempDir(), {
      'src/data/blog/vectors.md':
        '---\nauthor: Sat Naing\npubDatetime: 2024-01-05T04:00:00Z\ntitle: Vectors\ndraft: false\ntags:\n  - maths\n  - physics\nogImage: /images/vectors.png\ndescription: x\n---\n## Adding\n\n- [x] done\n',
      'public/images/vectors.png': await makePng(6, 6),
    });
    const [article] = readMarkdownFolder(root, NOW).articles;
    expect(article).toMatchObject({
      title: 'Vectors',
      author: 'Sat Naing',
      createdAt: '2024-01-05T04:00:00.000Z',
      category: 'maths',
      otherTerms: ['#physics'],
    });
    expect(article!.imageUrl).toMatch(/content\/images\/public\/images\/vectors\.png$/);
    expect(article!.oldPaths).toContain('/posts/vectors');
    expect(article!.html).toContain('type="checkbox"');
  });

  it('never reads an image outside the folder, and refuses a folder without Markdown', () => {
    const outside = tempDir();
    fs.writeFileSync(path.join(outside, 'secret.png'), 'x');
    const root = write(tempDir(), {
      'post.md': `---\ntitle: Escape\ndate: 2024-01-01\nimage: ../${path.basename(outside)}/secret.png\n---\n![x](../../etc/passwd) ![y](/../../secret.png)\n`,
    });
    const [article] = readMarkdownFolder(root, NOW).articles;
    expect(article!.imageUrl).toBeNull();
    expect(article!.notes.filter((n) => /not in the folder/.test(n))).toHaveLength(3);
    expect(() => readMarkdownFolder(tempDir(), NOW)).toThrow(/no Markdown files/);
  });
});

describe('importing a Markdown folder', () => {
  let db: Db;
  let sqlite: SQLite.Database;
  let close: () => void;
  beforeEach(async () => {
    ({ db, sqlite, close } = await openMigratedDatabase());
  });
  afterEach(() => close());

  it('writes the articles with their images stored as uploads, links between them pointed here, and changes nothing the second time', async () => {
    const root = write(tempDir(), {
      'content/posts/first.md':
        '---\ntitle: First\ndate: 2024-06-02\ncategories: [Biology]\nimage: cover.png\n---\nSee [second](/posts/second/). <script>alert(1)</script>\n',
      'content/posts/cover.png': await makePng(8, 8),
      'content/posts/second.md':
        '---\ntitle: Second\ndate: 2024-06-03\ncategories: [Biology]\n---\nBack to [first](/posts/first/).\n',
    });
    const target = { db, uploadsDir: path.join(tempDir(), 'uploads'), revisionsKeep: 20 };
    const options = { dryRun: false, files: folderSource(root), saver: { id: null, username: 'test' } };
    const first = await runImport(target, await readImportFile(root), options);
    expect(first.report.imported.map((l) => l.title).sort()).toEqual(['First', 'Second']);
    const rows = sqlite.prepare('select id, title, content, image from blogs order by id').all() as Array<{
      id: number;
      title: string;
      content: string;
      image: string | null;
    }>;
    expect(rows[0]!.image).toMatch(/^\/uploads\/images\//);
    expect(rows[0]!.content).not.toContain('<script');
    // The first article is written before the second exists: its link keeps the old path, which redirects.
    expect(rows[0]!.content).toContain('href="/posts/second"');
    expect(rows[1]!.content).toContain(`href="/blog/${rows[0]!.id}"`);
    const second = await runImport(target, await readImportFile(root), options);
    expect(second.report.imported).toHaveLength(0);
    expect(second.report.unchanged).toHaveLength(2);
    expect(second.report.skipped).toEqual([]);
  });
});
