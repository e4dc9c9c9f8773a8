import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { sql } from 'kysely';
import { beforeEach, describe, expect, it } from 'vitest';
import { trackTempDirs } from '../../../tests/support/temp-dirs.ts';
import { restoreInto, trackArchiveSites, type ArchiveSite } from '../../../tests/support/archive-sites.ts';
import type { Db } from '../db/client.ts';
import { SITE_TABLES, readTableRows, type SiteRow } from '../db/repositories/site-archive.ts';
import { writeSettingRows } from '../db/repositories/site-settings.ts';
import { ensureCommentSetting, replaceBlockedWords } from '../db/repositories/comment-blocklist.ts';
import { listPdfLinksWithoutText, refreshPdfColumn, savePdfText } from '../db/repositories/search.ts';
import { seedDemoIfEmpty } from '../seed/seed-if-empty.ts';
import { readImportFile } from '../import/import-file.ts';
import { runImport } from '../import/import-run.ts';
import { folderSource } from '../import/upload-source.ts';
import { exportSite, listUploadFiles } from './site-export.ts';
import { STUDY_SITE_WXR, writeStudyUploads } from '../../../tests/support/import-fixture.ts';

const tempDir = trackTempDirs('site-export-');

type Site = ArchiveSite;
const newSite = trackArchiveSites('site-export-');

/** A site with something in every table an export carries: the demo, a WordPress import, settings, a viewed day. */
async function fullSite(): Promise<Site> {
  const site = await newSite();
  await seedDemoIfEmpty(site.db, site.uploadsDir);
  const wordpress = await readImportFile(STUDY_SITE_WXR);
  const { report } = await runImport({ db: site.db, uploadsDir: site.uploadsDir, revisionsKeep: 20 }, wordpress, {
    dryRun: false,
    files: folderSource(await writeStudyUploads(tempDir())),
    saver: { id: null, username: 'test' },
  });
  // The import's rows (redirects, import_sources, held comments, its picture) are part of what must come back.
  expect([report.imported.length, report.failed.length, report.comments.imported, report.redirects]).toEqual([9, 0, 6, 24]);
  await writeSettingRows(site.db, { site_title: 'Exported site ✓' });
  const now = new Date().toISOString();
  await site.db
    .insertInto('blog_daily_views')
    .values({ blog_id: 1, day: now.slice(0, 10), views: 7 })
    .execute();
  await replaceBlockedWords(site.db, ['casino']);
  await ensureCommentSetting(site.db, 'form_secret', 'exported-secret');
  // A PDF's text as the background extractor stores it, in the search index with its article.
  const [pdf] = await listPdfLinksWithoutText(site.db);
  await savePdfText(site.db, pdf!, { text: 'chlorophyll notes', pages: 1, ok: true });
  await refreshPdfColumn(site.db, pdf!, 'chlorophyll notes');
  // An admin's edit of the imported Contact page, in words a round trip could garble.
  const edited = await site.db
    .updateTable('info_pages')
    .set({ content: '<p>Write to us: مرحبا 👋</p>', updated_at: now })
    .where('slug', '=', 'contact')
    .executeTakeFirst();
  expect(edited.numUpdatedRows).toBe(1n);
  await site.db
    .insertInto('info_page_revisions')
    .values({
      slug: 'contact',
      content: '<p>Write to us: مرحبا 👋</p>',
      content_source: null,
      user_id: null,
      username: 'admin',
      action: 'update',
      created_at: now,
    })
    .execute();
  return site;
}

async function allRows(db: Db): Promise<Record<string, SiteRow[]>> {
  const rows: Record<string, SiteRow[]> = {};
  for (const table of SITE_TABLES) rows[table] = await readTableRows(db, table);
  return rows;
}

const sha = (file: string) => crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
const fileHashes = (dir: string) => Object.fromEntries(listUploadFiles(dir).map((f) => [f, sha(path.join(dir, f))]));

async function exportOf(site: Site): Promise<string> {
  const out = path.join(tempDir(), 'site.tar.gz');
  await exportSite({ db: site.db, uploadsDir: site.uploadsDir, origin: 'https://old.example', out });
  return out;
}

describe('export archive', () => {
  let source: Site;
  beforeEach(async () => {
    source = await fullSite();
  });

  it('reads back into an empty site exactly: every row of every table, every upload byte for byte, the search index', async () => {
    const before = await allRows(source.db);
    for (const table of SITE_TABLES) expect(before[table]!.length, table).toBeGreaterThan(0);
    const file = await exportOf(source);

    const target = await newSite();
    const summary = await restoreInto(target, file);
    expect(summary.tables.blogs).toBe(before.blogs!.length);
    const after = await allRows(target.db);
    expect(after).toEqual(before);
    expect(fileHashes(target.uploadsDir)).toEqual(fileHashes(source.uploadsDir));
    expect(Object.keys(fileHashes(target.uploadsDir)).length).toBeGreaterThan(20);
    // The search index is made again from the articles: the same rows, so the same words find the same articles.
    const index = async (db: Db) => (await sql`select rowid, title, body, pdf from blogs_fts order by rowid`.execute(db)).rows;
    const cjk = async (db: Db) => (await sql`select rowid, title, body, pdf from blogs_cjk order by rowid`.execute(db)).rows;
    expect((await index(source.db)).length).toBeGreaterThan(20);
    expect(await index(target.db)).toEqual(await index(source.db));
    expect(await cjk(target.db)).toEqual(await cjk(source.db));
  });

  it('exports the same site twice to the same document', async () => {
    const one = await exportOf(source);
    const two = await exportOf(source);
    const doc = (file: string) => {
      const tar = zlib.gunzipSync(fs.readFileSync(file));
      const size = parseInt(tar.subarray(124, 136).toString('ascii'), 8);
      const json = JSON.parse(tar.subarray(512, 512 + size).toString('utf8')) as { exported_at?: string };
      delete json.exported_at;
      return json;
    };
    expect(doc(one)).toEqual(doc(two));
  });

  it('goes into an empty site only, and a dry run writes nothing', async () => {
    const file = await exportOf(source);
    const target = await newSite();
    const summary = await restoreInto(target, file, true);
    expect(summary.tables.blogs).toBeGreaterThan(0);
    expect(await readTableRows(target.db, 'blogs')).toEqual([]);
    expect(fs.existsSync(target.uploadsDir)).toBe(false);

    await restoreInto(target, file);
    const rows = await allRows(target.db);
    await expect(restoreInto(target, file)).rejects.toThrow(/empty site only/);
    expect(await allRows(target.db)).toEqual(rows);
  });
});
