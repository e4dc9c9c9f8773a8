import type { Db } from '../db/client.ts';
import { listSitePageFacts, newestBlogIds, topViewedIds } from '../db/repositories/site-pages.ts';
import { listPublicPdfBlogIds } from '../db/repositories/blog-side-lists.ts';
import { findBlogById } from '../db/repositories/blogs.ts';
import {
  DOWNLOAD_PAGE_SIZE,
  HOME_PAGE_SIZE,
  LIST_PAGE_SIZE,
  RECENT_LIMIT,
  TOP_VIEWED_LIMIT,
} from '../../shared/site-map/page-sizes.ts';
import {
  articleHref,
  blogsHref,
  categoryHref,
  downloadHref,
  homeHref,
  SITE_FILES,
  SITE_PAGES,
} from '../../shared/site-map/paths.ts';
import { tag, tagName, uniqueTags, type PageTag } from './site-tags.ts';
import { NOT_FOUND_KEY } from './not-found-page.ts';

// The front server takes its store keys from here, beside the pages to store.
export { pageKeyOf } from '../../shared/site-map/page-key.ts';

/**
 * The public site as the page store sees it: the tags each page declares, which pages a tag
 * reaches, the pages to pre-render and the pages to re-render before a change answers. The
 * addresses themselves are built in src/shared/site-map/paths.ts. Adding a public page means
 * editing this module, paths.ts and the page.
 */

const { home: HOME, blogs: BLOGS, download: DOWNLOAD, about: ABOUT, contact: CONTACT } = SITE_PAGES;
/** Pages that show only the nav (and, for the download page, the PDFs). */
const STATIC_PAGES = [DOWNLOAD, ABOUT, CONTACT];
const FILES = [SITE_FILES.sitemap, SITE_FILES.feed, SITE_FILES.robots, SITE_FILES.manifest];

/**
 * What each public page declares: `Astro.cache.set(cacheFor.home(shownIds, cards))`. A list page
 * carries the `blog:ID` of every article it shows (cards, ticker, top-viewed block) plus its list's
 * membership tag, so an edit of one article's shown fields stales only the pages showing it, and
 * the `category-name:ID` of every category its cards name, so a rename writes the new name into
 * only the pages naming that category outside the nav (category-name-patch.ts; the nav and footer
 * of every page are patched: chrome-patch.ts).
 */
export const cacheFor = {
  /**
   * cards: the page's own articles, with their category; inBlocks: those the ticker and the
   * top-viewed list show (every home page shows the same), named by their `in-block:ID` only.
   */
  home: (cards: readonly (ShownCategory & { id: number })[], inBlocks: readonly number[]) =>
    declare(
      tag.list,
      tag.nav,
      tag.carousel,
      tag.topViewed,
      ...cards.map((card) => tag.blog(card.id)),
      ...inBlocks.map(tag.inBlock),
      ...namesOf(cards),
    ),
  /** A category's pages carry its own membership tag: a new article elsewhere leaves them as they are. */
  blogList: (categoryId: number | null, cards: readonly (ShownCategory & { id: number })[]) =>
    declare(
      categoryId !== null ? tag.category(categoryId) : tag.list,
      tag.nav,
      ...cards.map((card) => tag.blog(card.id)),
      ...namesOf([...cards, { category_id: categoryId }]),
    ),
  /**
   * linked: the articles its Older and Newer links name. The page carries their `link:ID` (title
   * and place), not their `blog:ID`: an edit of a neighbour's text leaves this page alone. It
   * names its own category (the label, "More in ...").
   */
  article: (blog: ShownCategory & { id: number }, linked: readonly number[] = []) =>
    declare(
      tag.blog(blog.id),
      tag.comments(blog.id),
      tag.nav,
      tag.neighbours(blog.id),
      ...linked.map(tag.link),
      ...namesOf([blog]),
    ),
  /**
   * A Downloads page: its list's membership tag (an article gaining or losing its PDF, published or
   * taken down, moves every page) and the `blog:ID` of each row it shows (a title or date).
   */
  downloads: (shown: readonly number[]) => declare(tag.downloads, tag.nav, ...shown.map(tag.blog)),
  /** robots.txt and every "not found" answer: they show only the nav. */
  navOnly: () => declare(tag.nav),
  /** About and Contact: the nav and the text the admin wrote. */
  infoPage: () => declare(tag.nav, tag.infoPages),
  /** The web manifest: only the settings (name, colours, icons). */
  manifest: () => declare(),
  feed: (items: readonly (ShownCategory & { id: number })[]) =>
    declare(tag.list, ...items.map((item) => tag.blog(item.id)), ...namesOf(items)),
  sitemap: () => declare(tag.list, tag.updates, tag.nav),
};

/** An article as a page shows its category's name (null: "General", which no rename changes). */
export interface ShownCategory {
  category_id: number | null;
}

/** The `category-name` tags of the categories these articles name, each once. */
function namesOf(shown: readonly ShownCategory[]): PageTag[] {
  const ids = new Set<number>();
  for (const { category_id } of shown) if (category_id !== null) ids.add(category_id);
  return [...ids].map(tag.categoryName);
}

/** Every stored page shows some setting (at least the site title), so each carries the settings tag. */
function declare(...tags: PageTag[]): { tags: string[] } {
  return { tags: [...tags, tag.settings].map(tagName) };
}

const MAIN_PAGES = [HOME, BLOGS, ...STATIC_PAGES];

/** The URLs worth re-rendering at once when a tag changes: first pages only, never a later page. */
export function hotUrlsFor(tags: readonly PageTag[]): string[] {
  const urls = new Set<string>();
  for (const pageTag of tags) {
    switch (pageTag.kind) {
      case 'blog':
      case 'comments':
        urls.add(articleHref(pageTag.id));
        break;
      case 'category':
      case 'category-name':
        urls.add(categoryHref(pageTag.id));
        break;
      case 'list':
        urls.add(HOME).add(BLOGS);
        break;
      case 'carousel':
      case 'top-viewed':
        urls.add(HOME);
        break;
      case 'downloads':
        urls.add(DOWNLOAD);
        break;
      case 'nav':
      case 'settings':
        MAIN_PAGES.forEach((url) => urls.add(url));
        break;
      case 'info-pages':
        urls.add(ABOUT).add(CONTACT);
        break;
      // A page's Older and Newer links refresh in the background: no save waits for them (a
      // linked article taken down is never answered stale: see takenDownTags).
      case 'updates':
      case 'neighbours':
      case 'link':
        break;
      // Bumped by every new title: home page 1 is hot only when it shows the article
      // (`hotUrlsForChange` asks the database), the other home pages are patched.
      case 'in-block':
        break;
    }
  }
  return [...urls];
}

/**
 * The pages to re-render before a change answers (the freshness contract, docs/product.md#speed-and-freshness):
 * the first pages each changed tag reaches, and for an article whose shown fields changed, the
 * first list pages that show it now (home page 1 through its cards, ticker or top-viewed block,
 * /blogs and its category's page 1, Downloads page 1 for its PDF). Every other stale page is
 * refreshed in the background.
 */
export async function hotUrlsForChange(db: Db, changed: readonly PageTag[]): Promise<string[]> {
  const tags = uniqueTags(changed);
  const urls = new Set(hotUrlsFor(tags));
  const blogIds = tags.flatMap((t) => (t.kind === 'blog' ? [t.id] : []));
  if (blogIds.length === 0) return [...urls];
  const [newest, topViewed] = await Promise.all([
    newestBlogIds(db, Math.max(HOME_PAGE_SIZE, RECENT_LIMIT, LIST_PAGE_SIZE)),
    topViewedIds(db, TOP_VIEWED_LIMIT),
  ]);
  // Read only for a save of an article with a PDF: most saves have none.
  let newestPdfs: number[] | undefined;
  for (const blogId of blogIds) {
    const blog = await findBlogById(db, blogId);
    if (!blog) continue; // a deleted article: its membership tags named the pages it left
    if (newest.slice(0, Math.max(HOME_PAGE_SIZE, RECENT_LIMIT)).includes(blogId) || topViewed.includes(blogId)) urls.add(HOME);
    if (newest.slice(0, LIST_PAGE_SIZE).includes(blogId)) urls.add(BLOGS);
    if (blog.pdf_drive_link && (newestPdfs ??= await listPublicPdfBlogIds(db, DOWNLOAD_PAGE_SIZE)).includes(blogId))
      urls.add(DOWNLOAD);
    if (blog.category_id !== null && (await newestBlogIds(db, LIST_PAGE_SIZE, blog.category_id)).includes(blogId))
      urls.add(categoryHref(blog.category_id));
  }
  return [...urls];
}

/** Every public page of the site, most visited first, as page-store keys (what pre-render fills). */
export async function listPublicUrls(db: Db): Promise<string[]> {
  return [...(await publicUrls(db))];
}

/**
 * `listPublicUrls` made one at a time as they are taken: the pre-render keeps only its share of
 * a large site's addresses, packed (packed-keys.ts), never the whole list.
 */
export async function publicUrls(db: Db): Promise<Iterable<string>> {
  return urlsOf(await listSitePageFacts(db));
}

function* urlsOf({ blogIds, perCategory, pdfBlogs }: Awaited<ReturnType<typeof listSitePageFacts>>): Generator<string> {
  const total = blogIds.length;
  yield HOME;
  yield BLOGS;
  yield* STATIC_PAGES;
  for (const c of perCategory) yield categoryHref(c.id);
  for (let i = total - 1; i >= 0; i--) yield articleHref(blogIds[i]!);
  yield* laterPages(total, HOME_PAGE_SIZE, homeHref);
  yield* laterPages(total, LIST_PAGE_SIZE, (page) => blogsHref({ page }));
  for (const c of perCategory) yield* laterPages(c.blogs, LIST_PAGE_SIZE, (page) => categoryHref(c.id, page));
  yield* laterPages(pdfBlogs, DOWNLOAD_PAGE_SIZE, downloadHref);
  yield* FILES;
  yield NOT_FOUND_KEY;
}

/** Pages 2 and on of a paged list. */
function* laterPages(count: number, size: number, hrefOf: (page: number) => string): Generator<string> {
  for (let page = 2; page <= Math.ceil(count / size); page++) yield hrefOf(page);
}
