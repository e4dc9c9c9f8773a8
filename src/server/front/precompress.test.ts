import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { precompressAssets } from './precompress.ts';

let dir: string;

afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('precompressAssets', () => {
  it('writes brotli and gzip siblings that decode to the file, for text assets and OpenType fonts only', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'precompress-'));
    const script = `export const list = [${Array.from({ length: 400 }, (_, i) => `"item ${i}"`).join(',')}];\n`;
    fs.writeFileSync(path.join(dir, 'app.abc.js'), script);
    fs.writeFileSync(path.join(dir, 'tiny.css'), 'a{}');
    fs.writeFileSync(path.join(dir, 'photo.webp'), Buffer.alloc(2000, 7));
    // An OpenType font is uncompressed tables (the math font); woff2 is brotli already.
    const font = Buffer.concat([Buffer.from('OTTO'), Buffer.alloc(4000, 3)]);
    fs.writeFileSync(path.join(dir, 'math.abc.otf'), font);
    fs.writeFileSync(path.join(dir, 'script.abc.woff2'), Buffer.alloc(2000, 5));
    const summary = await precompressAssets(dir);
    expect(zlib.brotliDecompressSync(fs.readFileSync(path.join(dir, 'app.abc.js.br'))).toString()).toBe(script);
    expect(zlib.gunzipSync(fs.readFileSync(path.join(dir, 'app.abc.js.gz'))).toString()).toBe(script);
    expect(zlib.brotliDecompressSync(fs.readFileSync(path.join(dir, 'math.abc.otf.br')))).toEqual(font);
    // Three bytes do not get smaller; images and woff2 fonts are left alone.
    expect(fs.readdirSync(dir).sort()).toEqual([
      'app.abc.js',
      'app.abc.js.br',
      'app.abc.js.gz',
      'math.abc.otf',
      'math.abc.otf.br',
      'math.abc.otf.gz',
      'photo.webp',
      'script.abc.woff2',
      'tiny.css',
    ]);
    expect(summary.files).toBe(3);
    expect(summary.brBytes).toBeLessThan(summary.bytes);
  });

  it('does nothing for a missing folder', async () => {
    dir = path.join(os.tmpdir(), 'precompress-none');
    expect((await precompressAssets(dir)).files).toBe(0);
  });
});
