import { SITE_FILES, SITE_PAGES } from './paths.ts';

/**
 * Which requests the page store answers, and under which key. Only public pages are stored, and
 * only with the query parameters they read, normalised (page=1 dropped, order fixed), so
 * `/blogs?page=1&utm_source=x` and `/blogs` share one stored page. Search result pages are not
 * stored: their keys are unbounded and chosen by whoever types. The keys are the addresses
 * paths.ts builds, which is why both live here.
 */

const exactly = (path: string) => new RegExp(`^${path.replace('.', '\\.')}$`);

const ROUTES: Array<{ pattern: RegExp; params: string[] }> = [
  { pattern: exactly(SITE_PAGES.home), params: ['page'] },
  { pattern: exactly(SITE_PAGES.blogs), params: ['category', 'page'] },
  { pattern: /^\/blog\/[1-9]\d{0,14}$/, params: [] },
  { pattern: exactly(SITE_PAGES.download), params: ['page'] },
  ...[SITE_PAGES.about, SITE_PAGES.contact, ...Object.values(SITE_FILES)].map((path) => ({
    pattern: exactly(path),
    params: [],
  })),
];

const VALUE = /^[1-9]\d{0,9}$/;

/** The store key for a request URL (path + query), or null when the page is not stored. */
export function pageKeyOf(rawUrl: string): string | null {
  const queryAt = rawUrl.indexOf('?');
  let pathname = queryAt === -1 ? rawUrl : rawUrl.slice(0, queryAt);
  if (pathname.length > 1 && pathname.endsWith('/')) pathname = pathname.slice(0, -1);
  const route = ROUTES.find((r) => r.pattern.test(pathname));
  if (!route) return null;
  const query = new URLSearchParams(queryAt === -1 ? '' : rawUrl.slice(queryAt + 1));
  if (query.has('search')) return null;
  const parts: string[] = [];
  for (const name of route.params) {
    const values = query.getAll(name);
    if (values.length === 0) continue;
    if (values.length > 1 || !VALUE.test(values[0]!)) return null; // let Astro answer the odd request
    if (name === 'page' && values[0] === '1') continue;
    parts.push(`${name}=${values[0]}`);
  }
  return parts.length ? `${pathname}?${parts.join('&')}` : pathname;
}

const CATEGORY_LIST = `${SITE_PAGES.blogs}?category=`;

/** The category whose list a store key is (`/blogs?category=ID`, any page of it), or null. */
export function categoryListOf(key: string): number | null {
  if (!key.startsWith(CATEGORY_LIST)) return null;
  const id = /^[1-9]\d{0,9}(?=&|$)/.exec(key.slice(CATEGORY_LIST.length))?.[0];
  return id === undefined ? null : Number(id);
}
