import type { IncomingMessage, ServerResponse } from 'node:http';
import type { PageStore, StoredPage } from '../rebuild/page-store.ts';
import type { PageRenderer, RenderResult } from '../rebuild/renderer.ts';
import { isHtml } from './security-headers.ts';

/** Browsers keep pages but ask again each time (a 304 when nothing changed). */
const PAGE_CACHE_CONTROL = 'public, max-age=0, must-revalidate';

type Encoding = 'br' | 'gzip' | 'identity';

export function pickEncoding(acceptEncoding: string | string[] | undefined): Encoding {
  const header = Array.isArray(acceptEncoding) ? acceptEncoding.join(',') : (acceptEncoding ?? '');
  const accepts = (name: string) => new RegExp(`(^|[\\s,])${name}(?!;\\s*q=0(\\.0+)?\\s*(,|$))(\\s*;[^,]*)?(,|$)`, 'i').test(header);
  if (accepts('br')) return 'br';
  if (accepts('gzip')) return 'gzip';
  return 'identity';
}

/** pagePolicy: the build's Content-Security-Policy for HTML pages (a stored page keeps no headers). */
export function sendStoredPage(req: IncomingMessage, res: ServerResponse, page: StoredPage, state: string, pagePolicy: string | null = null): void {
  const etag = `W/${page.etag}`;
  if (pagePolicy && isHtml(page.contentType)) res.setHeader('Content-Security-Policy', pagePolicy);
  res.setHeader('Content-Type', page.contentType);
  res.setHeader('Cache-Control', PAGE_CACHE_CONTROL);
  res.setHeader('ETag', etag);
  res.setHeader('Vary', 'Accept-Encoding');
  res.setHeader('X-Page-Store', state);
  res.setHeader('X-Rendered-At', String(page.renderedAt));
  const match = req.headers['if-none-match'];
  if (match && match.split(',').some((value) => value.trim() === etag || value.trim() === page.etag)) {
    res.statusCode = 304;
    res.end();
    return;
  }
  const encoding = pickEncoding(req.headers['accept-encoding']);
  const body = encoding === 'br' ? page.br : encoding === 'gzip' ? page.gzip : page.body;
  if (encoding !== 'identity') res.setHeader('Content-Encoding', encoding);
  res.setHeader('Content-Length', body.length);
  res.statusCode = 200;
  res.end(req.method === 'HEAD' ? undefined : body);
}

function sendRaw(req: IncomingMessage, res: ServerResponse, result: RenderResult): void {
  res.statusCode = result.status;
  for (const [name, value] of Object.entries(result.headers)) {
    if (value !== undefined && name !== 'content-length') res.setHeader(name, value);
  }
  res.setHeader('Content-Length', result.body.length);
  res.end(req.method === 'HEAD' ? undefined : result.body);
}

/**
 * The fast path: a fresh stored page is answered from memory (or disk) without entering Astro.
 * A missing or stale one is rendered once, however many readers ask at the same moment.
 */
export async function respondWithPage(
  req: IncomingMessage,
  res: ServerResponse,
  key: string,
  store: PageStore,
  renderer: PageRenderer,
  pagePolicy: string | null = null,
): Promise<void> {
  const stored = store.get(key);
  if (stored && store.isFresh(stored)) {
    sendStoredPage(req, res, stored, 'HIT', pagePolicy);
    return;
  }
  try {
    const result = await renderer.render(key);
    if (result.page) sendStoredPage(req, res, result.page, stored ? 'REFRESHED' : 'MISS', pagePolicy);
    else sendRaw(req, res, result);
  } catch (error) {
    console.error(`[page-store] render of ${key} failed:`, error);
    if (stored) {
      // Better an older page than an error page.
      sendStoredPage(req, res, stored, 'STALE', pagePolicy);
      return;
    }
    if (!res.headersSent) {
      res.statusCode = 503;
      res.setHeader('Content-Type', 'text/plain; charset=utf-8');
      res.setHeader('Retry-After', '2');
    }
    res.end('The page could not be rendered. Please try again.');
  }
}
