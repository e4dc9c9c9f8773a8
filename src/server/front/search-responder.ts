import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AppContext } from '../context.ts';
import type { SearchPageDecision } from '../content/search-page.ts';
import { readNodeClientIp } from '../api/client-ip.ts';
import { PRIVATE_CACHE_CONTROL } from '../cdn/cache-headers.ts';

const DROPPED_HEADERS = new Set(['connection', 'keep-alive', 'transfer-encoding', 'date', 'x-page-tags', 'content-length']);

/** `/blogs` with a `search` parameter: a search page (never stored; `pageKeyOf` gives it no key). */
export function isSearchPageRequest(pathname: string, rawUrl: string): boolean {
  if (pathname !== '/blogs' && pathname !== '/blogs/') return false;
  const queryAt = rawUrl.indexOf('?');
  return queryAt !== -1 && new URLSearchParams(rawUrl.slice(queryAt + 1)).has('search');
}

/**
 * Answers a search page without rendering on this thread: the search services count the address
 * and have the search worker search and render the page; this thread only writes the answer, as
 * Astro would have (the page's policy narrowed to its inline scripts, `private, no-store`).
 * `renderWithAstro` is for a server whose search worker renders no pages: Astro renders it here,
 * told what was decided, so the address is counted once.
 */
export function respondWithSearchPage(
  req: IncomingMessage,
  res: ServerResponse,
  rawUrl: string,
  searchPages: NonNullable<AppContext['searchPages']>,
  trustProxy: boolean,
  renderWithAstro: (decision: SearchPageDecision) => void,
): void {
  searchPages(rawUrl, readNodeClientIp(req, trustProxy)).then(
    (answer) => {
      if (answer.kind === 'astro') return renderWithAstro(answer.decision);
      if (answer.kind === 'plain') {
        res.statusCode = answer.status;
        res.setHeader('Content-Type', 'text/plain; charset=utf-8');
        res.setHeader('Cache-Control', PRIVATE_CACHE_CONTROL);
        res.setHeader('Retry-After', String(answer.retryAfterSeconds));
        res.end(req.method === 'HEAD' ? undefined : answer.message);
        return;
      }
      const { status, headers } = answer.page;
      const body = Buffer.from(answer.page.body.buffer, answer.page.body.byteOffset, answer.page.body.byteLength);
      res.statusCode = status;
      for (const [name, value] of Object.entries(headers)) if (!DROPPED_HEADERS.has(name)) res.setHeader(name, value);
      // The search worker narrowed its Content-Security-Policy to the page (page-store/narrow-policy.ts).
      if (!res.hasHeader('cache-control')) res.setHeader('Cache-Control', PRIVATE_CACHE_CONTROL);
      res.setHeader('Content-Length', body.length);
      res.end(req.method === 'HEAD' ? undefined : body);
    },
    (error: unknown) => {
      console.error(`[search] the search page ${rawUrl} failed:`, error);
      if (!res.headersSent) {
        res.statusCode = 500;
        res.setHeader('Content-Type', 'text/plain; charset=utf-8');
        res.setHeader('Cache-Control', PRIVATE_CACHE_CONTROL);
      }
      res.end('The page could not be rendered. Please try again.');
    },
  );
}
