import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { trackTempDirs } from '../../../tests/support/temp-dirs.ts';
import { restoreInto, trackArchiveSites } from '../../../tests/support/archive-sites.ts';
import { readTableRows } from '../db/repositories/site-archive.ts';
import { tarHeader } from './tar-archive.ts';

/** Archives a careless or hostile hand could write: each refused whole, before a row or a file is written. */

const tempDir = trackTempDirs('site-restore-');

const newSite = trackArchiveSites('site-restore-');

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
