import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openMigratedDatabase } from '../../../tests/support/db.ts';
import { trackTempDirs } from '../../../tests/support/temp-dirs.ts';
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
import { readSiteArchive, restoreSiteArchive } from './site-restore.ts';
import { tarHeader } from './tar-archive.ts';

const FIXTURES = path.resolve(import.meta.dirname, '../../../tests/fixtures/import/wordpress');
const tempDir = trackTempDirs('site-export-');

interface Site {
  db: Db;
  close: () => void;
  uploadsDir: string;
}

const sites: Site[] = [];
async function newSite(): Promise<Site> {
  const { db, close } = await openMigratedDatabase();
  const site = { db, close, uploadsDir: path.join(tempDir(), 'uploads') };
  sites.push(site);
  return site;
}
afterEach(() => {
  for (const site of sites.splice(0)) site.close();
});

/** A site with something in every table an export carries: the demo, a real WordPress import, settings, a viewed day. */
async function fullSite(): Promise<Site> {
  const site = await newSite();
  await seedDemoIfEmpty(site.db, site.uploadsDir);
  const wordpress = await readImportFile(path.join(FIXTURES, 'themeunittestdata.wordpress.xml'));
  await runImport({ db: site.db, uploadsDir: site.uploadsDir, revisionsKeep: 20 }, wordpress, {
    dryRun: false,
    files: folderSource(path.join(FIXTURES, 'uploads')),
    saver: { id: null, username: 'test' },
  });
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
  await site.db
    .insertInto('info_pages')
    .values({ slug: 'contact', content: '<p>Write to us: مرحبا 👋</p>', content_source: null, updated_at: now })
    .execute();
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

async function restoreInto(site: Site, file: string, dryRun = false) {
  const archive = await readSiteArchive(file);
  try {
    return await restoreSiteArchive({ db: site.db, uploadsDir: site.uploadsDir }, archive, { dryRun });
  } finally {
    archive.dispose();
  }
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

/** A .tar.gz written entry by entry, names and types as given (the writer's own checks bypassed). */
function rawArchive(entries: Array<{ name: string; body: Buffer; type?: string }>): Buffer {
  const parts: Buffer[] = [];
  for (const entry of entries) {
    parts.push(tarHeader(entry.name, entry.body.length, 0, entry.type ?? '0'), entry.body);
    parts.push(Buffer.alloc((512 - (entry.body.length % 512)) % 512));
  }
  parts.push(Buffer.alloc(1024));
  return zlib.gzipSync(Buffer.concat(parts));
}

const validDocument = (files: Array<{ path: string; body: Buffer }> = []) =>
  Buffer.from(
    JSON.stringify({
      format: 'study-site-export',
      version: 1,
      exported_at: '2026-01-01T00:00:00.000Z',
      origin: 'https://old.example',
      migrations: [],
      tables: {
        categories: [{ id: 1, name: 'Algebra', sequence: 0, created_at: '2026-01-01T00:00:00.000Z', is_demo: 0 }],
      },
      files: files.map((f) => ({
        path: f.path,
        size: f.body.length,
        sha256: crypto.createHash('sha256').update(f.body).digest('hex'),
      })),
    }),
  );

describe('a hostile or damaged archive', () => {
  const picture = Buffer.from('not really a picture');
  const cases: Array<[string, Buffer, RegExp]> = [
    [
      'zip slip: a file named ../../x',
      rawArchive([
        { name: 'site.json', body: validDocument() },
        { name: '../../x', body: picture },
      ]),
      /outside its own folder/,
    ],
    [
      'a path leaving the uploads folder inside',
      rawArchive([
        { name: 'site.json', body: validDocument() },
        { name: 'uploads/../../../etc/x', body: picture },
      ]),
      /outside its own folder/,
    ],
    [
      'an absolute path',
      rawArchive([
        { name: 'site.json', body: validDocument() },
        { name: '/tmp/x', body: picture },
      ]),
      /outside its own folder/,
    ],
    [
      'a symbolic link',
      rawArchive([
        { name: 'site.json', body: validDocument() },
        { name: 'uploads/link', body: Buffer.alloc(0), type: '2' },
      ]),
      /other than a plain file/,
    ],
    [
      'a file list naming ../',
      rawArchive([{ name: 'site.json', body: validDocument([{ path: '../x', body: picture }]) }]),
      /outside the uploads folder/,
    ],
    [
      'a file not in its list',
      rawArchive([
        { name: 'site.json', body: validDocument() },
        { name: 'uploads/extra.png', body: picture },
      ]),
      /not in its file list/,
    ],
    [
      'a file that differs from its list',
      rawArchive([
        { name: 'site.json', body: validDocument([{ path: 'a.png', body: picture }]) },
        { name: 'uploads/a.png', body: Buffer.from('other bytes') },
      ]),
      /damaged/,
    ],
    [
      'a newer format',
      rawArchive([
        {
          name: 'site.json',
          body: Buffer.from(JSON.stringify({ format: 'study-site-export', version: 99, tables: {}, files: [] })),
        },
      ]),
      /newer version/,
    ],
    [
      'an unknown table',
      rawArchive([
        {
          name: 'site.json',
          body: Buffer.from(JSON.stringify({ format: 'study-site-export', version: 1, tables: { users: [] }, files: [] })),
        },
      ]),
      /does not know: users/,
    ],
    [
      '10,000 levels of nesting',
      rawArchive([{ name: 'site.json', body: Buffer.from('['.repeat(10_000) + ']'.repeat(10_000)) }]),
      /levels deep/,
    ],
    ['no document', rawArchive([{ name: 'uploads/a.png', body: picture }]), /no site.json/],
    ['not gzip', Buffer.from('<rss></rss>'), /not a gzip/],
    ['cut short', rawArchive([{ name: 'site.json', body: validDocument() }]).subarray(0, 40), /not a gzip|cut short/],
  ];

  it.each(cases)('refuses %s with nothing written', async (_label, bytes, reason) => {
    const file = path.join(tempDir(), 'hostile.tar.gz');
    fs.writeFileSync(file, bytes);
    const target = await newSite();
    const outside = path.join(path.dirname(file), 'x');
    await expect(restoreInto(target, file)).rejects.toThrow(reason);
    expect(await readTableRows(target.db, 'categories')).toEqual([]);
    expect(fs.existsSync(target.uploadsDir)).toBe(false);
    expect(fs.existsSync(outside)).toBe(false);
  });

  it('refuses a column this site does not have, with nothing written', async () => {
    const document = JSON.parse(validDocument().toString()) as { tables: { categories: Array<Record<string, unknown>> } };
    document.tables.categories[0]!.colour = 'red';
    const file = path.join(tempDir(), 'newer.tar.gz');
    fs.writeFileSync(file, rawArchive([{ name: 'site.json', body: Buffer.from(JSON.stringify(document)) }]));
    const target = await newSite();
    await expect(restoreInto(target, file)).rejects.toThrow(/column this site does not have \(colour\)/);
    expect(await readTableRows(target.db, 'categories')).toEqual([]);
  });

  it('sanitizes article HTML on the way in, as the editor does', async () => {
    const document = JSON.parse(validDocument().toString()) as { tables: Record<string, Array<Record<string, unknown>>> };
    const now = '2026-01-01T00:00:00.000Z';
    document.tables.blogs = [
      {
        id: 5,
        title: 'Hostile',
        author: 'x',
        content: '<p>Hello<script>top.__xss=1</script><img src="x" onerror="top.__xss=1"></p>',
        category_id: 1,
        created_at: now,
        updated_at: now,
        status: 'published',
      },
    ];
    const file = path.join(tempDir(), 'xss.tar.gz');
    fs.writeFileSync(file, rawArchive([{ name: 'site.json', body: Buffer.from(JSON.stringify(document)) }]));
    const target = await newSite();
    await restoreInto(target, file);
    const [blog] = await readTableRows(target.db, 'blogs');
    expect(blog!.content).not.toMatch(/script|onerror/);
    expect(blog!.content).toContain('Hello');
  });
});
