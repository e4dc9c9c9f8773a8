import crypto from 'node:crypto';
import type { CdnSettings } from '../config.ts';

/**
 * The CDN side of Astro 7's route caching, for pages the page store answers (they never enter
 * Astro, so Astro's own CDN providers cannot see them): a page's tags become the headers a
 * shared cache reads (`xkey` for Varnish's xkey module, `Surrogate-Key` for Fastly-style caches,
 * `Cache-Tag` for Cloudflare-style ones), with a Cache-Control the shared cache may honour.
 * The VCL strips the tag headers before an answer reaches a reader.
 */

/** Browsers keep pages but ask again each time (a 304 when nothing changed). */
export const BROWSER_PAGE_CACHE_CONTROL = 'public, max-age=0, must-revalidate';

/** Answers for one person or one moment (admin, /api, logged-in readers, search results). */
export const PRIVATE_CACHE_CONTROL = 'private, no-store';

/** A stored page for a logged-in reader: the browser may revalidate it, no shared cache keeps it. */
export const LOGGED_IN_PAGE_CACHE_CONTROL = 'private, max-age=0, must-revalidate';

/**
 * How long a shared cache may serve a stale answer while it fetches a fresh one, and keep it
 * when the app servers are down (grace); the VCL applies the same figure.
 */
const STALE_SECONDS = 86400;

/** A stale stored page is being re-rendered: a shared cache should ask again in a moment. */
const STALE_PAGE_SECONDS = 2;

/**
 * The key naming one stored page (its normalised store key), so a purge can reach exactly the
 * hot pages a change re-rendered; hashed, since keys hold characters some CDNs' tag lists split on.
 */
export function pageKeyTag(key: string): string {
  return `page-${crypto.createHash('sha1').update(key).digest('base64url').slice(0, 16)}`;
}

/** Whether any shared cache is configured: only then do pages offer themselves to one. */
export function sharedCacheEnabled(settings: CdnSettings): boolean {
  return settings.tagHeaders.length > 0;
}

/**
 * The headers (name, value, ...) of a public stored page for a shared cache: Cache-Control with
 * s-maxage and stale-while-revalidate, and the page's tags plus its own key in every configured
 * tag header. Without a shared cache the page keeps the browser-only Cache-Control. `stale`: the
 * page is being refreshed, so the shared cache keeps it only briefly.
 */
export function sharedCacheHeaders(settings: CdnSettings, tags: readonly string[], key: string, stale = false): string[] {
  if (!sharedCacheEnabled(settings)) return ['Cache-Control', BROWSER_PAGE_CACHE_CONTROL];
  const maxAge = stale ? STALE_PAGE_SECONDS : settings.maxAgeSeconds;
  const list = ['Cache-Control', `${BROWSER_PAGE_CACHE_CONTROL}, s-maxage=${maxAge}, stale-while-revalidate=${STALE_SECONDS}`];
  const keys = [...tags, pageKeyTag(key)];
  for (const header of settings.tagHeaders) {
    // Varnish's xkey and Fastly split on spaces, Cloudflare's Cache-Tag on commas.
    list.push(header, header === 'Cache-Tag' ? keys.join(',') : keys.join(' '));
  }
  return list;
}

const SESSION_COOKIE = /(?:^|;\s*)(?:__Host-)?session=[^;\s]/;

/** A request from a logged-in browser: its answers never go to a shared cache. */
export function carriesSession(cookie: string | undefined): boolean {
  return cookie !== undefined && SESSION_COOKIE.test(cookie);
}
