import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type SQLite from 'better-sqlite3';
import { openMigratedDatabase } from '../../../tests/support/db.ts';
import { trackTempDirs } from '../../../tests/support/temp-dirs.ts';
import type { Db } from '../db/client.ts';
import { readImportFile } from './import-file.ts';
import { runImport } from './import-run.ts';
import { isZipFile, zipSource } from './zip-source.ts';
import { INCLINED_PLANE_PATH, STUDY_SITE_WXR, drawInclinedPlane } from '../../../tests/support/import-fixture.ts';

const tempDir = trackTempDirs('zip-source-');

/** A zip with exactly the names given (what a hostile zip tool could write), stored or deflated. */
function rawZip(entries: Array<{ name: string; body: Buffer }>, deflate = false): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const { name, body: plain } of entries) {
    const nameBytes = Buffer.from(name);
    const crc = zlib.crc32(plain);
    const body = deflate ? zlib.deflateRawSync(plain) : plain;
    const method = deflate ? 8 : 0;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(plain.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(plain.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, body);
    centrals.push(central, nameBytes);
    offset += 30 + nameBytes.length + body.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

describe('an uploads zip', () => {
  let db: Db;
  let sqlite: SQLite.Database;
  let close: () => void;
  beforeEach(async () => {
    ({ db, sqlite, close } = await openMigratedDatabase());
  });
  afterEach(() => close());

  it('gives the featured image of the study-site export from a deflated zip of wp-content/uploads, missing ones reported', async () => {
    const dir = tempDir();
    const picture = await drawInclinedPlane();
    const zip = path.join(dir, 'uploads.zip');
    fs.writeFileSync(zip, rawZip([{ name: `wp-content/uploads/${INCLINED_PLANE_PATH}`, body: picture }], true));
    expect(isZipFile(zip)).toBe(true);
    const source = zipSource(zip);
    expect((await source.read(INCLINED_PLANE_PATH))!.equals(picture)).toBe(true);
    expect(await source.read('2019/03/missing.jpg')).toBeNull();
    expect(await source.read(`../wp-content/uploads/${INCLINED_PLANE_PATH}`)).toBeNull();

    const { report } = await runImport(
      { db, uploadsDir: path.join(dir, 'site-uploads'), revisionsKeep: 20 },
      await readImportFile(STUDY_SITE_WXR),
      {
        dryRun: false,
        files: source,
        saver: { id: null, username: 'test' },
      },
    );
    expect(report.failed).toEqual([]);
    const images = sqlite.prepare('select title, image from blogs where image is not null').all() as Array<{
      title: string;
      image: string;
    }>;
    expect(images).toEqual([{ title: "Newton's laws of motion", image: expect.stringMatching(/^\/uploads\/images\//) }]);
    const missing = report.imported.flatMap((l) => l.notes).filter((n) => /not in the uploads folder/.test(n));
    expect(missing).toEqual([
      'featured image 2019/05/pythagoras-proof.png: not in the uploads folder',
      'image 2019/05/pythagoras-proof.png: not in the uploads folder',
      'image 2020/01/printing-press.jpg: not in the uploads folder',
      'image 2020/01/reformation-timeline.pdf: not in the uploads folder',
    ]);
  });

  it.each([['../../x'], ['/etc/passwd'], ['uploads/../../x'], ['C:/Windows/x'], ['a\\..\\..\\x']])(
    'refuses a zip naming %s, before anything is read',
    (name) => {
      const zip = path.join(tempDir(), 'hostile.zip');
      fs.writeFileSync(
        zip,
        rawZip([
          { name: '2024/06/ok.png', body: Buffer.from('x') },
          { name, body: Buffer.from('pwned') },
        ]),
      );
      expect(() => zipSource(zip)).toThrow(/outside its own folder/);
    },
  );

  it('refuses a file that is not a zip, and never inflates past the upload limit', async () => {
    const notZip = path.join(tempDir(), 'not.zip');
    fs.writeFileSync(notZip, 'hello');
    expect(() => zipSource(notZip)).toThrow(/not a zip archive/);
    const bomb = path.join(tempDir(), 'bomb.zip');
    fs.writeFileSync(bomb, rawZip([{ name: 'big.png', body: Buffer.alloc(40 * 1024 * 1024) }], true));
    expect(fs.statSync(bomb).size).toBeLessThan(1024 * 1024);
    expect(await zipSource(bomb).read('big.png')).toBeNull();
  });
});
