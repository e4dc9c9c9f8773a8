import zlib from 'node:zlib';

/** A page's gzip and brotli copies, made once when it is stored. */
export function compressPage(body: Buffer): { gzip: Buffer; br: Buffer } {
  return {
    gzip: zlib.gzipSync(body, { level: 6 }),
    br: zlib.brotliCompressSync(body, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: 6,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
        [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
      },
    }),
  };
}
