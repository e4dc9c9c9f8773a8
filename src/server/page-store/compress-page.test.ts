import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { compressToSync } from './compress-page.ts';

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
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: page.length,
          [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
        },
      });
    expect(br.equals(atQuality(5))).toBe(true);
  });

  it('makes a gzip copy that reads back as the page', () => {
    expect(zlib.gunzipSync(compressToSync('gzip', page)).equals(page)).toBe(true);
  });
});
