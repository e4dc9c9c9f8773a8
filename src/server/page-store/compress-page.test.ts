import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { brotliWindowBits, compressToSync } from './compress-page.ts';

const WORDS = 'cell membrane osmosis enzyme protein ribosome nucleus mitosis meiosis gene allele diffusion'.split(' ');
// A page of some variety (a generator's words in a fixed order), where the qualities differ.
let seed = 7;
const word = () => WORDS[(seed = (seed * 1103515245 + 12345) % 2 ** 31) % WORDS.length];
const page = Buffer.from(
  `<!doctype html><html><head><title>Cells</title></head><body>${Array.from(
    { length: 400 },
    (_, i) => `<p class="p${i % 9}">Paragraph ${i}: ${word()} ${word()} ${word()}, ${word()} and ${word()}.</p>`,
  ).join('')}</body></html>`,
);

describe('compressToSync', () => {
  it('makes a brotli copy at quality 5, which reads back as the page', () => {
    const br = compressToSync('br', page);
    expect(zlib.brotliDecompressSync(br).equals(page)).toBe(true);
    const atQuality = (quality: number) =>
      zlib.brotliCompressSync(page, {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: quality,
          [zlib.constants.BROTLI_PARAM_LGWIN]: 16,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: page.length,
          [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
        },
      });
    expect(br.equals(atQuality(5))).toBe(true);
  });

  it('takes a 64 KB window for a page that fits in it, and a wider one for a page that does not', () => {
    // The stream's first bit is 0 for a 64 KB window (RFC 7932, 9.1).
    expect(compressToSync('br', page)[0]! & 1).toBe(0);
    expect(brotliWindowBits(65_520)).toBe(16);
    expect(brotliWindowBits(65_521)).toBe(17);
    expect(brotliWindowBits(64 * 1024 * 1024)).toBe(24);
    // 70 KB of noise twice: the second copy is a match only for a window that reaches back 70 KB.
    let state = 1;
    const noise = Buffer.alloc(70_000, 0).map(() => (state = (state * 48271) % 2147483647) & 0xff);
    const doubled = Buffer.concat([noise, noise]);
    const br = compressToSync('br', doubled);
    expect(zlib.brotliDecompressSync(br).equals(doubled)).toBe(true);
    expect(br.length).toBeLessThan(noise.length * 1.05);
  });

  it('makes a gzip copy that reads back as the page', () => {
    expect(zlib.gunzipSync(compressToSync('gzip', page)).equals(page)).toBe(true);
  });
});
