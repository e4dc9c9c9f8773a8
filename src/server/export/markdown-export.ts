import fs from 'node:fs';
import path from 'node:path';
import type { Db } from '../db/client.ts';
import { readTableRows, type SiteRow } from '../db/repositories/site-archive.ts';
import { listUploadFiles } from './site-export.ts';
import { writeTarGz, type TarEntry } from './tar-archive.ts';

/**
 * The Markdown export, for leaving for a static site generator (Hugo, Jekyll, Astro): a .tar.gz
 * with `posts/<id>-<slug>.md` per article (front matter: title, date, lastmod, draft, categories,
 * author, image, plus publishDate for a scheduled one) and `uploads/` as in the uploads folder, so
 * the articles' `/uploads/…` addresses work when the folder is served from the site's top. The
 * body is the editor's Markdown where the article has it, else its HTML (Markdown allows HTML).
 */

export interface MarkdownSummary {
  articles: number;
  files: number;
}

/** A YAML scalar every YAML reader takes the same way: a JSON string is a YAML double-quoted one. */
const quoted = (value: string) => JSON.stringify(value);

/** A file-name slug of the title: letters and digits of any script, `-` between words. */
export function slugOf(title: string): string {
  const slug = title
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return slug || 'article';
}

export function markdownOf(blog: SiteRow, category: string | null): string {
  const lines = ['---', `title: ${quoted(String(blog.title))}`, `date: ${quoted(String(blog.created_at))}`];
  lines.push(`lastmod: ${quoted(String(blog.updated_at))}`);
  lines.push(`draft: ${blog.status === 'published' || blog.status === 'scheduled' ? 'false' : 'true'}`);
  if (blog.status === 'scheduled' && blog.publish_at) lines.push(`publishDate: ${quoted(String(blog.publish_at))}`);
  if (category) lines.push(`categories: [${quoted(category)}]`);
  if (blog.author) lines.push(`author: ${quoted(String(blog.author))}`);
  if (blog.image) lines.push(`image: ${quoted(String(blog.image))}`);
  if (blog.pdf_drive_link) lines.push(`pdf: ${quoted(String(blog.pdf_drive_link))}`);
  if (blog.video_link) lines.push(`video: ${quoted(String(blog.video_link))}`);
  lines.push(`id: ${Number(blog.id)}`, '---', '');
  const body = typeof blog.content_source === 'string' && blog.content_source ? blog.content_source : String(blog.content);
  return `${lines.join('\n')}${body.replace(/\s+$/, '')}\n`;
}

export async function exportMarkdown(options: { db: Db; uploadsDir: string; out: string }): Promise<MarkdownSummary> {
  const { blogs, categories } = await options.db.transaction().execute(async (trx) => ({
    blogs: await readTableRows(trx, 'blogs'),
    categories: await readTableRows(trx, 'categories'),
  }));
  const names = new Map(categories.map((c) => [Number(c.id), String(c.name)]));
  const files = listUploadFiles(options.uploadsDir);
  function* entries(): Generator<TarEntry> {
    for (const blog of blogs) {
      const text = Buffer.from(markdownOf(blog, names.get(Number(blog.category_id)) ?? null));
      yield { name: `posts/${Number(blog.id)}-${slugOf(String(blog.title))}.md`, size: text.length, body: text };
    }
    for (const relative of files) {
      const full = path.join(options.uploadsDir, ...relative.split('/'));
      yield { name: `uploads/${relative}`, size: fs.statSync(full).size, body: () => fs.createReadStream(full) };
    }
  }
  await writeTarGz(options.out, entries());
  return { articles: blogs.length, files: files.length };
}
