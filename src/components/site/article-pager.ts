/**
 * Which Older/Newer pair an article page shows: the category's when the reader came from that
 * category's list (or followed the category's pair from another article of it), else the site's.
 * The choice is kept for the tab in sessionStorage, so it lasts while the reader pages through
 * the category and ends when they arrive from anywhere else.
 */
export const PAGER_KEY = 'article-pager-category';

interface PagerStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/** Whether the reader came from the category's list, or from its pair on another article. */
export function cameFromCategory(referrer: string, origin: string, categoryId: string, remembered: string | null): boolean {
  let from: URL;
  try {
    from = new URL(referrer);
  } catch {
    return false;
  }
  if (from.origin !== origin) return false;
  if (from.pathname === '/blogs') return from.searchParams.get('category') === categoryId && !from.searchParams.has('search');
  return /^\/blog\/\d+$/.test(from.pathname) && remembered === categoryId;
}

export function choosePager(doc: Document, referrer: string, storage: PagerStorage): void {
  const category = doc.querySelector<HTMLElement>('nav[data-pager="category"]');
  const site = doc.querySelector<HTMLElement>('nav[data-pager="site"]');
  const categoryId = category?.dataset.category;
  if (!category || !categoryId) return;
  let remembered: string | null = null;
  try {
    remembered = storage.getItem(PAGER_KEY);
  } catch {
    // Storage off (private mode): only a visit straight from the list picks the category's pair.
  }
  const inCategory = cameFromCategory(referrer, doc.location.origin, categoryId, remembered);
  try {
    if (inCategory) storage.setItem(PAGER_KEY, categoryId);
    else storage.removeItem(PAGER_KEY);
  } catch {
    // As above.
  }
  if (!inCategory) return;
  category.hidden = false;
  if (site) site.hidden = true;
}
