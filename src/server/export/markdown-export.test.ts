import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openMigratedDatabase } from '../../../tests/support/db.ts';
import { trackTempDirs } from '../../../tests/support/temp-dirs.ts';
import { readTableRows } from '../db/repositories/site-archive.ts';
import { seedDemoIfEmpty } from '../seed/seed-if-empty.ts';
import { exportMarkdown, markdownOf, slugOf } from './markdown-export.ts';
import { listUploadFiles } from './site-export.ts';
import { readTarGz } from './tar-archive.ts';

const tempDir = trackTempDirs('markdown-export-');
let close: (() => void) | undefined;
afterEach(() => close?.());

describe('Markdown export', () => {
  it('writes one file per article with its front matter, and every upload', async () => {
    const opened = await openMigratedDatabase();
    close = opened.close;
    const uploadsDir = path.join(tempDir(), 'uploads');
    await seedDemoIfEmpty(opened.db, uploadsDir);
    await opened.db.updateTable('blogs').set({ status: 'draft' }).where('id', '=', 2).execute();
    const out = path.join(tempDir(), 'site-markdown.tar.gz');
    const summary = await exportMarkdown({ db: opened.db, uploadsDir, out });

    const files = new Map<string, Buffer>();
    await readTarGz(out, { totalBytes: 1e9, entries: 10_000 }, (name, body) => void files.set(name, body));
    const blogs = await readTableRows(opened.db, 'blogs');
    expect(summary.articles).toBe(blogs.length);
    const posts = [...files.keys()].filter((name) => name.startsWith('posts/'));
    expect(posts).toHaveLength(blogs.length);
    for (const relative of listUploadFiles(uploadsDir)) expect(files.has(`uploads/${relative}`), relative).toBe(true);

    const first = blogs.find((b) => b.id === 1)!;
    const text = files.get(`posts/1-${slugOf(String(first.title))}.md`)!.toString();
    expect(text.startsWith('---\n')).toBe(true);
    expect(text).toContain(`title: ${JSON.stringify(first.title)}\n`);
    expect(text).toContain(`date: "${String(first.created_at)}"\n`);
    expect(text).toContain('draft: false\n');
    expect(text).toMatch(/\ncategories: \["[^"]+"\]\n/);
    const draft = [...files.entries()].find(([name]) => name.startsWith('posts/2-'))![1].toString();
    expect(draft).toContain('draft: true\n');
  });

  it('keeps any title readable as YAML and any script in the file name', () => {
    const text = markdownOf(
      {
        id: 3,
        title: 'A "quoted": title\nwith # and ---',
        created_at: 'x',
        updated_at: 'y',
        status: 'scheduled',
        publish_at: 'z',
        content: '<p>Hi</p>',
      },
      'Maths: "basics"',
    );
    expect(text).toContain('title: "A \\"quoted\\": title\\nwith # and ---"\n');
    expect(text).toContain('publishDate: "z"\n');
    expect(text).toContain('categories: ["Maths: \\"basics\\""]\n');
    expect(text.endsWith('---\n<p>Hi</p>\n')).toBe(true);
    expect(slugOf('مرحبا بالعالم! Hello')).toBe('مرحبا-بالعالم-hello');
    expect(slugOf('???')).toBe('article');
  });
});
