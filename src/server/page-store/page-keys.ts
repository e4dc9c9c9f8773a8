/**
 * Which requests the page store answers, and under which key. Only public pages are stored, and
 * only with the query parameters they read, normalised (page=1 dropped, order fixed), so
 * `/blogs?page=1&utm_source=x` and `/blogs` share one stored page. Search result pages are not
 * stored: their keys are unbounded and chosen by whoever types.
 */
const ROUTES: Array<{ pattern: RegExp; params: string[] }> = [
  { pattern: /^\/$/, params: ['page'] },
  { pattern: /^\/blogs$/, params: ['category', 'page'] },
  { pattern: /^\/blog\/[1-9]\d{0,14}$/, params: [] },
  { pattern: /^\/(download|about|contact)$/, params: [] },
  { pattern: /^\/(sitemap\.xml|rss\.xml|robots\.txt)$/, params: [] },
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

/** The URLs worth re-rendering at once when a tag changes; the rest re-render on demand. */
export function hotUrlsFor(tags: string[]): string[] {
  const urls = new Set<string>();
  for (const tag of tags) {
    const [kind, id] = tag.split(':');
    switch (kind) {
      case 'blog':
      case 'comments':
        if (id) urls.add(`/blog/${id}`);
        break;
      case 'category':
        if (id) urls.add(`/blogs?category=${id}`);
        break;
      case 'list':
        urls.add('/').add('/blogs');
        break;
      case 'carousel':
      case 'top-viewed':
        urls.add('/');
        break;
      case 'downloads':
        urls.add('/download');
        break;
      case 'nav':
        urls.add('/').add('/blogs').add('/download').add('/about').add('/contact');
        break;
    }
  }
  return [...urls];
}
