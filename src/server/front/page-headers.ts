import type { IncomingMessage } from 'node:http';
import type { StoredPage } from '../page-store/store.ts';
import { fieldOf } from '../page-store/store-reads.ts';
import type { CdnSettings } from '../config.ts';
import { carriesSession, LOGGED_IN_PAGE_CACHE_CONTROL, sharedCacheHeaders } from '../cdn/cache-headers.ts';
import { isHtml } from './security-headers.ts';
import { narrowPolicy } from './page-policy.ts';
import type { Encoding } from './encodings.ts';

export const NO_SHARED_CACHE: CdnSettings = {
  tagHeaders: [],
  purgeVarnish: [],
  maxAgeSeconds: 0,
  purgeSecret: null,
  purgeWaitMs: 0,
};

/** How a stored page's answer was reached: from the store as it was, or rendered for this reader. */
export type PageState = 'HIT' | 'STALE' | 'MISS' | 'REFRESHED';

/**
 * Who may keep the answer: shared caches (`shared`), nobody but this reader (`personal`: a session
 * cookie or a Bearer token), or browsers only (`substitute`: an encoding other than the reader's
 * best, sent while that one is made, which a shared cache must not keep as the reader's).
 */
export type Audience = 'shared' | 'personal' | 'substitute';

/** A request from a logged-in browser or an API client: its answer is for that person only. */
export function isPersonal(req: IncomingMessage): boolean {
  // Most readers send neither header: two property reads, no pattern.
  if (req.headers.cookie === undefined && req.headers.authorization === undefined) return false;
  return carriesSession(req.headers.cookie) || req.headers.authorization !== undefined;
}

export function etagMatches(req: IncomingMessage, page: StoredPage): boolean {
  const match = req.headers['if-none-match'];
  if (!match) return false;
  const weak = `W/${page.etag}`;
  return match.split(',').some((value) => value.trim() === weak || value.trim() === page.etag);
}

/** Policies narrowed here, for stored HTML pages that came without one. */
const pagePolicies = new WeakMap<StoredPage, string>();

/**
 * Each stored HTML page's own policy: the build's, narrowed to the inline scripts and styles it
 * has. The render worker narrowed it and the store keeps it with the page, so a page answered
 * from memory or from the file costs no decoding, matching or hashing here; only a page stored
 * without one (by hand, in a test) is narrowed here, once per copy, from its body (`body`: the
 * page's body, which a copy read in another encoding does not hold).
 */
export function policyOf(
  page: StoredPage,
  pagePolicy: string | null,
  body: () => Buffer | null = () => page.body,
): string | null {
  if (!pagePolicy || !isHtml(page.contentType)) return null;
  if (page.policy) return page.policy;
  let policy = pagePolicies.get(page);
  if (!policy) {
    const html = body();
    if (!html) return pagePolicy;
    pagePolicies.set(page, (policy = narrowPolicy(pagePolicy, html.toString('utf8'))));
  }
  return policy;
}

/** The page's bytes in this encoding, when this copy of it holds them. */
export function bodyIn(page: StoredPage, encoding: Encoding): Buffer | null {
  return page[fieldOf(encoding)];
}

/** Raw header lists of a stored page's answers, made once per page, state, variant and audience. */
const pageHeaders = new WeakMap<StoredPage, Partial<Record<string, string[]>>>();

/**
 * The header list (name, value, ...) of a stored page's answer: `common` (the security headers
 * every answer carries, the page's own policy in place of the build's), who may keep it, the
 * validators, and for a body its type, encoding and length. Made once per page and variant: the
 * hottest path of the site writes a stored page with one writeHead of a list made before.
 */
export function storedPageHeaders(
  page: StoredPage,
  state: PageState,
  variant: Encoding | 'not-modified',
  audience: Audience,
  common: string[],
  policy: string | null,
  cdn: CdnSettings,
): string[] {
  let perPage = pageHeaders.get(page);
  if (!perPage) pageHeaders.set(page, (perPage = {}));
  const name = `${state} ${variant} ${audience}`;
  let list = perPage[name];
  if (list) return list;
  list = [];
  for (let i = 0; i < common.length; i += 2) {
    list.push(common[i]!, policy && common[i] === 'Content-Security-Policy' ? policy : common[i + 1]!);
  }
  if (audience === 'personal') list.push('Cache-Control', LOGGED_IN_PAGE_CACHE_CONTROL);
  else
    list.push(
      ...sharedCacheHeaders(audience === 'substitute' ? NO_SHARED_CACHE : cdn, page.tags.names, page.key, state === 'STALE'),
    );
  list.push('ETag', `W/${page.etag}`, 'Vary', 'Accept-Encoding', 'X-Page-Store', state);
  // A 304 describes no body (RFC 9110 section 15.4.5): the browser keeps the type it has.
  if (variant !== 'not-modified') {
    list.push('Content-Type', page.contentType, 'X-Rendered-At', String(page.renderedAt));
    if (variant !== 'identity') list.push('Content-Encoding', variant);
    list.push('Content-Length', String(bodyIn(page, variant)!.length));
  }
  perPage[name] = list;
  return list;
}
