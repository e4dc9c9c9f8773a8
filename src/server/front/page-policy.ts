import crypto from 'node:crypto';
import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { isHtml } from './security-headers.ts';

const HASH_SOURCE = /'(sha256|sha384|sha512)-[A-Za-z0-9+/=]+'/g;
const HAS_HASH = /'(sha256|sha384|sha512)-/;
const INLINE_SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script>/gi;
const INLINE_STYLE = /<style\b[^>]*>([\s\S]*?)<\/style>/gi;

/** Hash sources of what a document runs or applies inline: scripts without src (data blocks excluded) and style elements. */
function inlineHashes(html: string, algorithm: string): Set<string> {
  const hash = (text: string) => `'${algorithm}-${crypto.createHash(algorithm).update(text, 'utf8').digest('base64')}'`;
  const found = new Set<string>();
  for (const [, attributes, text] of html.matchAll(INLINE_SCRIPT)) {
    if (/\bsrc\s*=/i.test(attributes!)) continue;
    const type = /\btype\s*=\s*["']?([^"'\s>]*)/i.exec(attributes!)?.[1] ?? '';
    if (type !== '' && type !== 'module' && !/javascript|ecmascript/i.test(type)) continue;
    found.add(hash(text!));
  }
  for (const [, text] of html.matchAll(INLINE_STYLE)) found.add(hash(text!));
  return found;
}

/** Few distinct narrowed policies exist (one per set of inline scripts); pages share the string. */
const interned = new Map<string, string>();

/**
 * The build's page policy narrowed to one document: Astro names every inline script and style of
 * the whole build (16 hashes, about 1 KB), a page needs its own few. Only hash sources are
 * dropped, never added, so the result is as strict or stricter; a directive left empty becomes
 * 'none', which is what an empty source list means. Fewer bytes on every page answer.
 */
export function narrowPolicy(policy: string, html: string): string {
  const algorithm = HAS_HASH.exec(policy)?.[1];
  if (!algorithm) return policy;
  const present = inlineHashes(html, algorithm);
  const narrowed = policy
    .split(';')
    .map((directive) => {
      const kept = directive
        .replace(HASH_SOURCE, (source) => (present.has(source) ? source : ''))
        .replace(/\s+/g, ' ')
        .trim();
      return kept !== '' && !kept.includes(' ') && directive.trim() !== kept ? `${kept} 'none'` : kept;
    })
    .filter(Boolean)
    .join(';');
  const known = interned.get(narrowed);
  if (known) return known;
  if (interned.size < 1000) interned.set(narrowed, narrowed);
  return narrowed;
}

function headersArgument(args: unknown[]): OutgoingHttpHeaders | null {
  const last = args[args.length - 1];
  return last && typeof last === 'object' && !Array.isArray(last) ? (last as OutgoingHttpHeaders) : null;
}

function toBuffer(chunk: unknown, encoding: unknown): Buffer | null {
  if (typeof chunk === 'string') return Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
  if (chunk instanceof Uint8Array) return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  return null;
}

/**
 * Narrows the policy of an HTML answer Astro writes to `res`, so pages Astro renders per request
 * carry the same policy as stored ones. Astro writes the head, then the document in a few chunks
 * (streaming is off, the page exists whole): the head and chunks are held until the end, then
 * sent at once. An answer that is not a whole document keeps the build's policy.
 */
export function narrowPolicyOfAnswer(res: ServerResponse): void {
  const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  let waiting: unknown[] | null = null;
  const held: Buffer[] = [];

  res.writeHead = ((...args: unknown[]) => {
    const headers = headersArgument(args);
    const policy = headers?.['content-security-policy'];
    const type = headers?.['content-type'];
    if (typeof policy === 'string' && typeof type === 'string' && isHtml(type) && HAS_HASH.test(policy)) {
      waiting = args;
      return res;
    }
    return writeHead(...args);
  }) as ServerResponse['writeHead'];

  res.write = ((chunk: unknown, ...rest: unknown[]) => {
    if (!waiting) return write(chunk, ...rest);
    const buffer = toBuffer(chunk, rest[0]);
    if (buffer) held.push(buffer);
    const callback = rest.find((arg) => typeof arg === 'function') as (() => void) | undefined;
    if (callback) process.nextTick(callback);
    return true;
  }) as ServerResponse['write'];

  res.end = ((...args: unknown[]) => {
    if (!waiting) return end(...args);
    const head = waiting;
    waiting = null;
    const callback = args.find((arg) => typeof arg === 'function');
    const last = toBuffer(args[0], args[1]);
    if (last) held.push(last);
    const body = Buffer.concat(held);
    const headers = headersArgument(head)!;
    const text = body.toString('utf8');
    if (/<\/html>\s*$/i.test(text))
      headers['content-security-policy'] = narrowPolicy(String(headers['content-security-policy']), text);
    writeHead(...head);
    return callback ? end(body, callback) : end(body);
  }) as ServerResponse['end'];
}
