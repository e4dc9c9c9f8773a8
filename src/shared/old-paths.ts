/**
 * The addresses an article had on the old site, as the redirect table keeps them: a path with
 * its query, lower-case, no trailing slash (`/2024/06/slug`, `/?p=123`), so `/2024/06/slug/` and
 * `/2024/06/Slug` find the same row.
 */

export function normaliseOldPath(pathAndQuery: string): string | null {
  let url: URL;
  try {
    url = new URL(pathAndQuery, 'http://old.invalid');
  } catch {
    return null;
  }
  let path = decodeURIComponentSafe(url.pathname).toLowerCase().replace(/\/+$/, '') || '/';
  if (path.length > 512) return null;
  path = path.replace(/\/{2,}/g, '/');
  const p = url.searchParams.get('p') ?? url.searchParams.get('page_id');
  if (path === '/' && p && /^\d{1,12}$/.test(p)) return `/?p=${p}`;
  if (path === '/') return null;
  return path;
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The item's permalink (when on the old site), `/?p=ID` and `/slug`. */
export function oldPathsOf(origin: string, item: { link: string; postId: string; slug: string }): string[] {
  const paths = new Set<string>();
  const add = (value: string | null) => {
    if (value) paths.add(value);
  };
  if (item.link) {
    try {
      const url = new URL(item.link);
      const base = origin ? new URL(origin) : null;
      if (!base || url.host === base.host) {
        const basePath = base ? base.pathname.replace(/\/+$/, '') : '';
        const rest = url.pathname.startsWith(basePath) ? url.pathname.slice(basePath.length) : url.pathname;
        add(normaliseOldPath(rest + url.search));
      }
    } catch {
      // A link that is not a URL gives no address.
    }
  }
  if (/^\d+$/.test(item.postId)) add(`/?p=${item.postId}`);
  if (item.slug) add(normaliseOldPath(`/${item.slug}`));
  return [...paths];
}
