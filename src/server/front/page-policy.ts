import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { isHtml } from './security-headers.ts';
import { HAS_HASH, isWholeDocument, narrowPolicy } from '../page-store/narrow-policy.ts';

export { narrowPolicy };

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
    if (isWholeDocument(text))
      headers['content-security-policy'] = narrowPolicy(String(headers['content-security-policy']), text);
    writeHead(...head);
    return callback ? end(body, callback) : end(body);
  }) as ServerResponse['end'];
}
