import { SITE_PAGES } from '../../shared/site-map/paths.ts';

/**
 * The search the nav's search boxes show on this page: a search result page's own, else none.
 * Only search results (never stored) echo it: any other page may be stored and shared.
 */
export function searchEchoOf(url: URL): string {
  return url.pathname === SITE_PAGES.blogs ? (url.searchParams.get('search')?.trim() ?? '') : '';
}
