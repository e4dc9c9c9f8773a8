import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { precompressAssets } from './precompress.ts';

let dir: string;

afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('precompressAssets', () => {
  it('writes brotli and gzip siblings that decode to the file, for text assets only', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'precompress-'));
    const script = `export const list = [${Array.from({ length: 400 }, (_, i) => `"item ${i}"`).join(',')}];\n`;
    fs.writeFileSync(path.join(dir, 'app.abc.js'), script);
    fs.writeFileSync(path.join(dir, 'tiny.css'), 'a{}');
    fs.writeFileSync(path.join(dir, 'photo.webp'), Buffer.alloc(2000, 7));
    const summary = await precompressAssets(dir);
    expect(zlib.brotliDecompressSync(fs.readFileSync(path.join(dir, 'app.abc.js.br'))).toString()).toBe(script);
    expect(zlib.gunzipSync(fs.readFileSync(path.join(dir, 'app.abc.js.gz'))).toString()).toBe(script);
    // Three bytes do not get smaller; images are left alone.
    expect(fs.readdirSync(dir).sort()).toEqual(['app.abc.js', 'app.abc.js.br', 'app.abc.js.gz', 'photo.webp', 'tiny.css']);
    expect(summary.files).toBe(2);
    expect(summary.brBytes).toBeLessThan(summary.bytes);
  });

  it('does nothing for a missing folder', async () => {
    dir = path.join(os.tmpdir(), 'precompress-none');
    expect((await precompressAssets(dir)).files).toBe(0);
  });
});
