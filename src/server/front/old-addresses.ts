import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Db } from '../db/client.ts';
import { findRedirect } from '../db/repositories/redirects.ts';
import { normaliseOldPath } from '../../shared/old-paths.ts';
import { articleHref } from '../../shared/site-map/paths.ts';

/**
 * An imported site's old addresses (`/?p=123`, `/2024/06/slug/`, `/slug/`) answer with a 301 to
 * the article they became, from the redirect table the import keeps. Only two kinds of request
 * are looked up, so no page of this site pays for it: the home page with WordPress's `?p=` or
 * `?page_id=` query, and an address whose first segment no route claims (which would otherwise be
 * the 404 page).
 */

/**
 * An old address to look up: the redirect table's spelling of it, and which kind it is. The home
 * page's `?p=` is a page of this site too; an `unknown-path` would be a 404, and is paced like one.
 */
export interface OldAddress {
  path: string;
  kind: 'home-query' | 'unknown-path';
}

/** The request's address as an old address to look up, or null when it is not one. */
export function oldAddressOf(url: string, isUnknownPath: (url: string) => boolean): OldAddress | null {
  if (url.startsWith('/?')) {
    if (!/[?&](?:p|page_id)=\d/.test(url)) return null;
    const path = normaliseOldPath(url);
    return path?.startsWith('/?p=') ? { path, kind: 'home-query' } : null;
  }
  const path = isUnknownPath(url) ? normaliseOldPath(url) : null;
  return path ? { path, kind: 'unknown-path' } : null;
}

/**
 * Answers the 301 when the table has the address; else calls `otherwise` (the request goes on as
 * if never looked at). A redirect may move when a later import takes the address, so it is cached
 * for an hour, not for good.
 */
export function answerOldAddress(
  req: IncomingMessage,
  res: ServerResponse,
  db: Db,
  oldPath: string,
  securityHeaders: (res: ServerResponse) => void,
  otherwise: () => void,
): void {
  findRedirect(db, oldPath).then(
    (blogId) => {
      if (blogId === undefined) return otherwise();
      securityHeaders(res);
      res.statusCode = 301;
      res.setHeader('Location', articleHref(blogId));
      res.setHeader('Cache-Control', 'public, max-age=3600');
      res.setHeader('Content-Type', 'text/plain; charset=utf-8');
      res.end(req.method === 'HEAD' ? undefined : `Moved to ${articleHref(blogId)}`);
    },
    (error: unknown) => {
      console.error('[redirects] lookup failed:', error instanceof Error ? error.message : error);
      otherwise();
    },
  );
}
