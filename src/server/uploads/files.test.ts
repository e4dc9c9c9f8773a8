import fs from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { trackTempDirs } from '../../../tests/support/temp-dirs.ts';
import { absoluteUploadPath, cleanOriginalName, createUploadId, writeFilesAtomically } from './files.ts';

const tempDir = trackTempDirs('uploads-unit-');
let dir: string;
beforeEach(() => {
  dir = tempDir();
});

const allFiles = () => (fs.readdirSync(dir, { recursive: true }) as string[]).filter((f) => fs.statSync(path.join(dir, f)).isFile()).sort();

describe('writeFilesAtomically', () => {
  it('writes every file in place and leaves no temp file', async () => {
    await writeFilesAtomically(dir, [
      { relativePath: 'images/a-w480.webp', data: Buffer.from('one') },
      { relativePath: 'images/a-w960.webp', data: Buffer.from('two') },
    ]);
    expect(allFiles()).toEqual(['images/a-w480.webp', 'images/a-w960.webp']);
    expect(fs.readFileSync(path.join(dir, 'images/a-w960.webp'), 'utf8')).toBe('two');
  });

  it('leaves nothing behind when one file cannot be placed', async () => {
    // A directory where the second file should go makes its rename fail after the first succeeded.
    fs.mkdirSync(path.join(dir, 'images/b-w960.webp'), { recursive: true });
    await expect(
      writeFilesAtomically(dir, [
        { relativePath: 'images/b-w480.webp', data: Buffer.from('one') },
        { relativePath: 'images/b-w960.webp', data: Buffer.from('two') },
      ]),
    ).rejects.toThrow();
    expect(allFiles()).toEqual([]);
  });

  it('refuses a path that leaves the uploads folder before writing anything', async () => {
    await expect(writeFilesAtomically(dir, [{ relativePath: 'pdfs/ok.pdf', data: Buffer.from('x') }, { relativePath: '../escape.pdf', data: Buffer.from('x') }])).rejects.toThrow(/escapes/);
    expect(allFiles()).toEqual([]);
    expect(() => absoluteUploadPath(dir, '../../etc/passwd')).toThrow();
  });
});

describe('createUploadId', () => {
  it('is random lowercase hex', () => {
    const ids = new Set(Array.from({ length: 50 }, createUploadId));
    expect(ids.size).toBe(50);
    for (const id of ids) expect(id).toMatch(/^[a-f0-9]{24}$/);
  });
});

describe('cleanOriginalName', () => {
  it.each([
    ['Chapter 1.pdf', 'Chapter 1.pdf'],
    ['chapter.PDF', 'chapter.pdf'],
    ['notes', 'notes.pdf'],
    ['C:\\Users\\me\\notes.pdf', 'notes.pdf'],
    ['../../etc/passwd', 'passwd.pdf'],
    ['a"b;c\r\nd.pdf', 'a_b_cd.pdf'],
    ['\u202egnp.pdf', 'gnp.pdf'],
    ['...', 'document.pdf'],
    ['', 'document.pdf'],
    [`${'x'.repeat(300)}.pdf`, `${'x'.repeat(96)}.pdf`],
  ])('%j -> %j', (given, expected) => {
    expect(cleanOriginalName(given, '.pdf', 'document.pdf')).toBe(expected);
  });
});
