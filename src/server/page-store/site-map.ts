import type { Db } from '../db/client.ts';
import { blogExists, listSitePageFacts, newestBlogIds, topViewedIds } from '../db/repositories/site-pages.ts';
import { HOME_PAGE_SIZE, LIST_PAGE_SIZE, TOP_VIEWED_LIMIT } from '../content/reader.ts';
import { tag, tagName, uniqueTags, type PageTag } from './site-tags.ts';

/**
 * The public site, in one place: its routes and their store keys, the tags each page declares,
 * which pages a tag reaches, the pages to pre-render and the pages to re-render before a change
 * answers. Adding a public page means editing this module and the page.
 */

const HOME = '/';
const BLOGS = '/blogs';
const categoryUrl = (id: number) => `${BLOGS}?category=${id}`;
const articleUrl = (id: number) => `/blog/${id}`;
/** Pages that show only the nav (and, for /download, the PDFs). */
const STATIC_PAGES = ['/download', '/about', '/contact'] as const;
const FILES = ['/sitemap.xml', '/rss.xml', '/robots.txt'] as const;

/** What each public page declares: `Astro.cache.set(cacheFor.home())`. */
export const cacheFor = {
  home: () => declare(tag.list, tag.nav, tag.carousel, tag.topViewed),
  /** A category's pages carry only its own tag: a new article elsewhere leaves them as they are. */
  blogList: (categoryId: number | null) =>
    categoryId !== null ? declare(tag.category(categoryId), tag.nav) : declare(tag.list, tag.nav),
  article: (blogId: number) => declare(tag.blog(blogId), tag.comments(blogId), tag.nav),
  downloads: () => declare(tag.downloads, tag.nav),
  /** About, contact, robots.txt and every "not found" answer: they show only the nav. */
  navOnly: () => declare(tag.nav),
  feed: () => declare(tag.list),
  sitemap: () => declare(tag.list, tag.nav),
};

function declare(...tags: PageTag[]): { tags: string[] } {
  return { tags: tags.map(tagName) };
}

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
  ...[...STATIC_PAGES, ...FILES].map((path) => ({ pattern: new RegExp(`^${path.replace('.', '\\.')}$`), params: [] })),
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

/** A first page a tag reaches; a first list page says which list it shows, to test membership. */
type HotPage = { url: string; list?: { categoryId: number | null; size: number; orTopViewed?: boolean } };

const HOME_PAGE: HotPage = { url: HOME, list: { categoryId: null, size: HOME_PAGE_SIZE, orTopViewed: true } };
const BLOGS_PAGE: HotPage = { url: BLOGS, list: { categoryId: null, size: LIST_PAGE_SIZE } };

function hotPagesFor(tags: readonly PageTag[]): HotPage[] {
  const pages = new Map<string, HotPage>();
  const add = (...found: HotPage[]) => found.forEach((page) => pages.set(page.url, page));
  for (const pageTag of tags) {
    switch (pageTag.kind) {
      case 'blog':
      case 'comments':
        add({ url: articleUrl(pageTag.id) });
        break;
      case 'category':
        add({ url: categoryUrl(pageTag.id), list: { categoryId: pageTag.id, size: LIST_PAGE_SIZE } });
        break;
      case 'list':
        add(HOME_PAGE, BLOGS_PAGE);
        break;
      case 'carousel':
      case 'top-viewed':
        add(HOME_PAGE);
        break;
      case 'downloads':
        add({ url: '/download' });
        break;
      case 'nav':
        add(HOME_PAGE, BLOGS_PAGE, ...STATIC_PAGES.map((url) => ({ url })));
        break;
    }
  }
  return [...pages.values()];
}

/** The URLs worth re-rendering at once when a tag changes; the rest re-render on demand. */
export function hotUrlsFor(tags: readonly PageTag[]): string[] {
  return hotPagesFor(tags).map((page) => page.url);
}

/**
 * The pages to re-render before a change answers. hotUrlsFor() names every first page a tag can
 * reach; when the change is about one existing article, a first list page is only hot if the
 * article is on it (an edit of an old article leaves home page 1 as it is: it is re-rendered when
 * next asked for, like every other page carrying the tag).
 */
export async function hotUrlsForChange(db: Db, changed: readonly PageTag[]): Promise<string[]> {
  const tags = uniqueTags(changed);
  const pages = hotPagesFor(tags);
  const blogIds = tags.flatMap((t) => (t.kind === 'blog' ? [t.id] : []));
  const onlyArticleChange = blogIds.length === 1 && !tags.some((t) => t.kind === 'nav' || t.kind === 'carousel');
  if (!onlyArticleChange) return pages.map((page) => page.url);
  const blogId = blogIds[0]!;
  // A deleted article is in no list any more: every page it was on must be rebuilt now.
  if (!(await blogExists(db, blogId))) return pages.map((page) => page.url);
  const [newest, topViewed] = await Promise.all([newestBlogIds(db, HOME_PAGE_SIZE), topViewedIds(db, TOP_VIEWED_LIMIT)]);
  const kept: string[] = [];
  for (const { url, list } of pages) {
    if (!list) kept.push(url);
    else if (list.orTopViewed && topViewed.includes(blogId)) kept.push(url);
    else {
      const shown = list.categoryId === null ? newest.slice(0, list.size) : await newestBlogIds(db, list.size, list.categoryId);
      if (shown.includes(blogId)) kept.push(url);
    }
  }
  return kept;
}

/** Every public page of the site, most visited first, as page-store keys (what pre-render fills). */
export async function listPublicUrls(db: Db): Promise<string[]> {
  const { blogIds, perCategory } = await listSitePageFacts(db);
  const total = blogIds.length;
  return [
    HOME,
    BLOGS,
    ...STATIC_PAGES,
    ...perCategory.map((c) => categoryUrl(c.id)),
    ...[...blogIds].reverse().map(articleUrl),
    ...laterPages(HOME, total, HOME_PAGE_SIZE),
    ...laterPages(BLOGS, total, LIST_PAGE_SIZE),
    ...perCategory.flatMap((c) => laterPages(BLOGS, c.blogs, LIST_PAGE_SIZE, `category=${c.id}`)),
    ...FILES,
  ];
}

/** Pages 2 and on of a paged list. */
function laterPages(base: string, count: number, size: number, extra = ''): string[] {
  const urls: string[] = [];
  for (let page = 2; page <= Math.ceil(count / size); page++) {
    urls.push(`${base}?${[extra, `page=${page}`].filter(Boolean).join('&')}`);
  }
  return urls;
}
