import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { CdnSettings } from '../config.ts';
import { carriesSession, PRIVATE_CACHE_CONTROL, sharedCacheHeaders } from './cache-headers.ts';

/**
 * Cache headers of the answers Astro writes itself (everything the page store does not answer:
 * /api, /admin, login, search results, not-found pages, and every page when PAGE_STORE=off).
 * An answer that set no Cache-Control is for one reader at one moment: `private, no-store`, so
 * no shared cache keeps it. Under PAGE_STORE=off a public page (`key`) rendered for a signed-out
 * reader carries its tags (X-Page-Tags, from the route-cache provider) to the shared cache like
 * a stored page does. X-Page-Tags itself never leaves.
 */
export function markAstroAnswer(req: IncomingMessage, res: ServerResponse, cdn: CdnSettings, key: string | null): void {
  const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
  res.writeHead = ((statusCode: number, ...rest: unknown[]) => {
    const last = rest[rest.length - 1];
    const headers = last && typeof last === 'object' && !Array.isArray(last) ? (last as OutgoingHttpHeaders) : null;
    const tags = readAndDrop(res, headers, 'x-page-tags');
    const declared = headers?.['cache-control'] ?? res.getHeader('cache-control');
    if (declared === undefined) {
      const shareable =
        key !== null &&
        tags !== null &&
        statusCode === 200 &&
        !carriesSession(req.headers.cookie) &&
        req.headers.authorization === undefined &&
        (headers?.['set-cookie'] ?? res.getHeader('set-cookie')) === undefined;
      const list = shareable ? sharedCacheHeaders(cdn, tags, key) : ['Cache-Control', PRIVATE_CACHE_CONTROL];
      for (let i = 0; i < list.length; i += 2) res.setHeader(list[i]!, list[i + 1]!);
    }
    return writeHead(statusCode, ...rest);
  }) as ServerResponse['writeHead'];
}

function readAndDrop(res: ServerResponse, headers: OutgoingHttpHeaders | null, name: string): string[] | null {
  const value = headers?.[name] ?? res.getHeader(name);
  if (headers) delete headers[name];
  res.removeHeader(name);
  if (value === undefined) return null;
  const tags = String(value)
    .split(',')
    .map((tag) => tag.trim())
    .filter(Boolean);
  return tags.length ? tags : null;
}
