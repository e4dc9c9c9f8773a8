import zlib from 'node:zlib';
import { promisify } from 'node:util';

/** The encodings a stored page may also be kept in, besides its body. */
export type PageEncoding = 'gzip' | 'br';

const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);

const brotliOptions = (size: number): zlib.BrotliOptions => ({
  params: {
    [zlib.constants.BROTLI_PARAM_QUALITY]: 6,
    [zlib.constants.BROTLI_PARAM_SIZE_HINT]: size,
    [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
  },
});

/**
 * One encoding of a page, made on libuv's thread pool: the serving thread goes on answering
 * while it is made. A page is compressed on the first request that takes this encoding, not at
 * render: most pages of a large site are rarely read, and a render (the pre-render, the refresh
 * after a rename) that compressed to both encodings spent a fifth of its time on copies no reader
 * asked for.
 */
export function compressTo(encoding: PageEncoding, body: Buffer): Promise<Buffer> {
  return encoding === 'br' ? brotli(body, brotliOptions(body.length)) : gzip(body, { level: 6 });
}

/** The same on this thread: a render worker making, with a background render, the encodings readers took before. */
export function compressToSync(encoding: PageEncoding, body: Buffer): Buffer {
  return encoding === 'br' ? zlib.brotliCompressSync(body, brotliOptions(body.length)) : zlib.gzipSync(body, { level: 6 });
}
