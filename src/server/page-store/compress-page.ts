import zlib from 'node:zlib';

/** The encodings a stored page may also be kept in, besides its body. */
export const PAGE_ENCODINGS = ['gzip', 'br'] as const;
export type PageEncoding = (typeof PAGE_ENCODINGS)[number];
/** A stored copy of a page: as rendered (identity) or encoded. */
export type PageCopy = PageEncoding | 'identity';

const brotliOptions = (size: number): zlib.BrotliOptions => ({
  params: {
    [zlib.constants.BROTLI_PARAM_QUALITY]: 6,
    [zlib.constants.BROTLI_PARAM_SIZE_HINT]: size,
    [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
  },
});

/**
 * One encoding of a page, made by a render worker (on a reader's first request for it, or with a
 * background render of a page readers took it of): most pages of a large site are rarely read,
 * and compressing every page to both encodings at render was a fifth of the pre-render.
 */
export function compressToSync(encoding: PageEncoding, body: Buffer): Buffer {
  return encoding === 'br' ? zlib.brotliCompressSync(body, brotliOptions(body.length)) : zlib.gzipSync(body, { level: 6 });
}
