import fs from 'node:fs';
import path from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { acceptedEncodings } from './encodings.ts';
import { ifRangeHolds, noneMatch, parseByteRange } from './byte-ranges.ts';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.svg': 'image/svg+xml',
  '.woff2': 'font/woff2',
  '.otf': 'font/otf',
  '.pdf': 'application/pdf',
};

export function contentTypeOf(file: string): string {
  return TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
}

/**
 * Resolves a URL path inside root, or null. Decodes once, refuses NUL, backslashes, dot segments
 * and anything that would leave root, so encoded and double-encoded traversal both miss.
 */
export function resolveInside(root: string, urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.includes('\\') || decoded.includes('%')) return null;
  const segments = decoded.split('/').filter((s) => s !== '');
  if (segments.some((s) => s === '.' || s === '..' || s.startsWith('.'))) return null;
  const full = path.resolve(root, ...segments);
  return full.startsWith(path.resolve(root) + path.sep) ? full : null;
}

export interface FileHeaders {
  cacheControl: string;
  extra?: Record<string, string>;
  /** Look for `<file>.br` and `<file>.gz` made at build time and send one the client accepts. */
  precompressed?: boolean;
}

const ENCODED_SUFFIX = { br: '.br', gzip: '.gz' } as const;

function statFile(file: string): fs.Stats | null {
  try {
    const stat = fs.statSync(file);
    return stat.isFile() ? stat : null;
  } catch {
    return null;
  }
}

/** A header sent more than once is joined, so it matches no validator. */
const oneHeader = (value: string | string[] | undefined) => (Array.isArray(value) ? value.join(', ') : value);

/** The precompressed sibling to send, if any: the best coding the client accepts that exists. */
function findEncoded(req: IncomingMessage, file: string): { file: string; stat: fs.Stats; encoding: 'br' | 'gzip' } | null {
  for (const encoding of acceptedEncodings(req.headers['accept-encoding'])) {
    if (encoding === 'identity') return null;
    const sibling = file + ENCODED_SUFFIX[encoding];
    const stat = statFile(sibling);
    if (stat) return { file: sibling, stat, encoding };
  }
  return null;
}

/**
 * Serves one file with a strong ETag, 304s and single byte ranges (206, 416, If-Range), so an
 * interrupted PDF download resumes. The ETag is size and modification time, like nginx's: files
 * here are written once under a new name and never changed in place, so equal size and time
 * mean equal bytes, which is what a strong validator promises. Answers false when there is no
 * such file.
 */
export function serveFile(req: IncomingMessage, res: ServerResponse, file: string, headers: FileHeaders): boolean {
  const original = statFile(file);
  if (!original) return false;
  const encoded = headers.precompressed ? findEncoded(req, file) : null;
  const stat = encoded?.stat ?? original;
  const coding = encoded ? `-${encoded.encoding}` : '';
  const etag = `"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}${coding}"`;
  res.setHeader('Content-Type', contentTypeOf(file));
  res.setHeader('Cache-Control', headers.cacheControl);
  res.setHeader('ETag', etag);
  res.setHeader('Last-Modified', original.mtime.toUTCString());
  res.setHeader('Accept-Ranges', 'bytes');
  // The answer depends on Accept-Encoding only when a compressed copy exists.
  if (headers.precompressed && (encoded || statFile(file + ENCODED_SUFFIX.br) || statFile(file + ENCODED_SUFFIX.gzip)))
    res.setHeader('Vary', 'Accept-Encoding');
  if (encoded) res.setHeader('Content-Encoding', encoded.encoding);
  for (const [name, value] of Object.entries(headers.extra ?? {})) res.setHeader(name, value);
  if (noneMatch(req.headers['if-none-match'], etag)) {
    res.statusCode = 304;
    res.end();
    return true;
  }
  const range = ifRangeHolds(oneHeader(req.headers['if-range']), etag, stat.mtimeMs)
    ? parseByteRange(req.headers.range, stat.size)
    : null;
  if (range === 'unsatisfiable') {
    res.statusCode = 416;
    res.setHeader('Content-Range', `bytes */${stat.size}`);
    res.setHeader('Content-Length', 0);
    res.end();
    return true;
  }
  if (range) {
    res.statusCode = 206;
    res.setHeader('Content-Range', `bytes ${range.start}-${range.end}/${stat.size}`);
  }
  const start = range?.start ?? 0;
  const end = range?.end ?? stat.size - 1;
  res.setHeader('Content-Length', end - start + 1);
  if (req.method === 'HEAD' || end < start) {
    res.end();
    return true;
  }
  const stream = fs.createReadStream(encoded?.file ?? file, { start, end });
  stream.on('error', () => res.destroy());
  stream.pipe(res);
  return true;
}
