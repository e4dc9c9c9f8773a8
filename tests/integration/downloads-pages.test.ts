import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest, openDatabase } from '../../src/server/db/client.ts';
import { insertBlog } from '../../src/server/db/repositories/blogs.ts';
import { insertCategory } from '../../src/server/db/repositories/categories.ts';
import { DOWNLOAD_PAGE_SIZE } from '../../src/shared/site-map/page-sizes.ts';
import { startServer, type TestServer } from '../support/server.ts';
import { loginAsAdmin, type Session } from '../support/auth.ts';
import { blogBodyFrom, buildBlogWrite, type Json } from '../support/builders.ts';

/**
 * Downloads in pages of DOWNLOAD_PAGE_SIZE rows, newest first, on the real built server: a site
 * with five rows more than a page. One page of every PDF was 4.8 MB at 100,000 articles, and it
 * was rendered again before each save of an article with a PDF answered.
 */

const PDFS = DOWNLOAD_PAGE_SIZE + 5;
let site: TestServer;
let admin: Session;
/** The articles with a PDF, newest first (ids). */
const newestFirst: number[] = [];

beforeAll(async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'study-downloads-'));
  const { db, sqlite } = openDatabase(path.join(dir, 'site.sqlite'));
  try {
    await migrateToLatest(db);
    const { id: category_id } = await insertCategory(db, { name: 'Notes', sequence: 1 });
    for (let i = 0; i < PDFS; i++) {
      const day = new Date(Date.UTC(2024, 0, 1 + i)).toISOString();
      const id = await insertBlog(
        db,
        buildBlogWrite({ title: `Notes ${i + 1}`, category_id, pdf_drive_link: `/uploads/pdfs/notes-${i + 1}.pdf` }),
        'x',
        day,
      );
      newestFirst.unshift(id);
    }
    // An article without a PDF is never listed.
    await insertBlog(
      db,
      buildBlogWrite({ title: 'No file here', category_id }),
      'x',
      new Date(Date.UTC(2025, 0, 1)).toISOString(),
    );
  } finally {
    sqlite.close();
  }
  site = await startServer({ dir, env: { SEED_DEMO: 'false' } });
  admin = await loginAsAdmin(site);
});

afterAll(async () => {
  await site?.stop();
});

const rowsOf = async (address: string) => {
  const response = await fetch(site.url(address));
  const html = await response.text();
  const ids = [...html.matchAll(/<a href="\/blog\/(\d+)">Read More/g)].map((match) => Number(match[1]));
  return { status: response.status, html, ids };
};

async function renameArticle(id: number, title: string): Promise<void> {
  const blog = (await (await fetch(site.url(`/api/blogs/${id}`))).json()) as Json;
  const response = await fetch(site.url(`/api/blogs/${id}`), {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${admin.token}` },
    body: JSON.stringify(blogBodyFrom(blog, { title })),
  });
  expect(response.status, await response.text()).toBe(200);
}

describe('Downloads in pages', () => {
  it('lists the newest PDFs on /download and the rest on /download?page=2, with links between them', async () => {
    const first = await rowsOf('/download');
    expect(first.status).toBe(200);
    expect(first.ids).toEqual(newestFirst.slice(0, DOWNLOAD_PAGE_SIZE));
    expect(first.html).toContain('<nav class="pagination" aria-label="Download pages">');
    expect(first.html).toContain('href="/download?page=2"');
    const second = await rowsOf('/download?page=2');
    expect(second.status).toBe(200);
    expect(second.ids).toEqual(newestFirst.slice(DOWNLOAD_PAGE_SIZE));
    expect(second.html).toContain('<title>Downloads, page 2');
    expect(second.html).toMatch(/<a[^>]* href="\/download"[^>]*>1<\/a>/);
  });

  it.each(['/download?page=3', '/download?page=0', '/download?page=x'])('answers %s with the 404 page', async (address) => {
    expect((await rowsOf(address)).status).toBe(404);
  });

  it('shows a renamed PDF on the first page when its save answers, and on a later page once refreshed', async () => {
    await renameArticle(newestFirst[0]!, 'Renamed newest notes');
    expect((await rowsOf('/download')).html).toContain('Renamed newest notes');

    const oldest = newestFirst.at(-1)!;
    expect((await rowsOf('/download?page=2')).ids).toContain(oldest);
    await renameArticle(oldest, 'Renamed oldest notes');
    // Its page is not rendered before the save answers (a later page never is): refreshed in the
    // background, never older than the save for long.
    await expect.poll(async () => (await rowsOf('/download?page=2')).html, { timeout: 30_000 }).toContain('Renamed oldest notes');
  });
});
