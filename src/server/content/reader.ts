import type { Db } from '../db/client.ts';
import { findBlogById, findPublicBlogById, type Blog, type BlogSummary } from '../db/repositories/blogs.ts';
import type { Audience } from '../db/repositories/visibility.ts';
import {
  countBlogs,
  listBlogIds,
  listBlogSummaries,
  listBlogSummariesByIds,
  listPublicBlogIds,
  listPublicContents,
} from '../db/repositories/blog-lists.ts';
import {
  findAdjacentBlogs,
  listDownloadRows,
  listPublicPdfBlogIds,
  listRecent,
  listTopViewed,
  type AdjacentBlog,
} from '../db/repositories/blog-side-lists.ts';
import { listCategories, listCategoriesCached, listPublicCategories, type Category } from '../db/repositories/categories.ts';
import { cachedRead } from '../db/read-cache.ts';
import { listCommentsForBlog, type Comment } from '../db/repositories/comments.ts';
import { listSlides } from '../db/repositories/carousel.ts';
import { paginate, type PageInfo } from '../../shared/pagination.ts';
import { buildFtsQuery, normalizeSearchText } from './search.ts';
import { summarizeHtml } from './html-summary.ts';
import { renderArticleHtml } from './render-article.ts';
import type { FeedItem } from './feed.ts';
import type { RecentItem, SlideDto, TopViewedItem } from '../../shared/api-types.ts';

import {
  DOWNLOAD_PAGE_SIZE,
  FEED_LIMIT,
  FOOTER_IMPORTANT_CATEGORIES,
  FOOTER_QUICK_CATEGORIES,
  HOME_PAGE_SIZE,
  LIST_PAGE_SIZE,
  NAV_MAIN_CATEGORIES,
  RECENT_LIMIT,
  TOP_VIEWED_LIMIT,
} from '../../shared/site-map/page-sizes.ts';

export {
  DOWNLOAD_PAGE_SIZE,
  FEED_LIMIT,
  FOOTER_IMPORTANT_CATEGORIES,
  FOOTER_QUICK_CATEGORIES,
  HOME_PAGE_SIZE,
  LIST_PAGE_SIZE,
  NAV_MAIN_CATEGORIES,
  RECENT_LIMIT,
  TOP_VIEWED_LIMIT,
};

export interface Paged<T> {
  items: T[];
  pageInfo: PageInfo;
}

/*
 * What every page of a render reads identically (the categories, a list's ordered ids, the home
 * page's side lists) is read once per database state (db/read-cache.ts: exact after
 * any write, from any process, and when a scheduled article comes due). A list's page is then a
 * slice of its ids: no count and no OFFSET walk per page, whatever the number of articles.
 */
function publicListIds(db: Db, categoryId: number | null): Promise<number[]> {
  return cachedRead(db, `list-ids:${categoryId ?? 'all'}`, () => listPublicBlogIds(db, categoryId));
}

/** Every category, empty ones included (the API, whose readers include the admin screens). */
export function getCategories(db: Db): Promise<Category[]> {
  return listCategoriesCached(db);
}

/** Page `page` of a list of ids, its rows read by `rowsOf`, or null past its last page. */
async function pageOfIds<T>(
  ids: number[],
  page: number,
  pageSize: number,
  rowsOf: (ids: number[]) => Promise<T[]>,
): Promise<Paged<T> | null> {
  const pageInfo = paginate(page, pageSize, ids.length);
  if (page > pageInfo.totalPages) return null;
  return { items: await rowsOf(ids.slice(pageInfo.offset, pageInfo.offset + pageSize)), pageInfo };
}

/** Page `page` of a public list, or null past its last page. */
async function publicListPage(
  db: Db,
  categoryId: number | null,
  page: number,
  pageSize: number,
): Promise<Paged<BlogSummary> | null> {
  return pageOfIds(await publicListIds(db, categoryId), page, pageSize, (ids) => listBlogSummariesByIds(db, ids));
}

export function getHomePage(db: Db, page: number): Promise<Paged<BlogSummary> | null> {
  return publicListPage(db, null, page, HOME_PAGE_SIZE);
}

export interface ArticleListQuery {
  categoryId: number | null;
  search: string | null;
  page: number;
}

export interface ArticleList extends Paged<BlogSummary> {
  heading: string;
  category: Category | null;
  search: string | null;
  /** The category id was given but no such category exists. */
  unknownCategory: boolean;
}

/** docs/product.md#article-list: All Articles; Search Results for: "{term}"; the category of the first result; or No articles found in this category. */
export async function getArticleList(db: Db, query: ArticleListQuery): Promise<ArticleList | null> {
  const search = normalizeSearchText(query.search);
  const category =
    query.categoryId !== null ? ((await listCategoriesCached(db)).find((c) => c.id === query.categoryId) ?? null) : null;
  const unknownCategory = query.categoryId !== null && !category;
  if (search === null && !unknownCategory) {
    const listed = await publicListPage(db, query.categoryId, query.page, LIST_PAGE_SIZE);
    if (!listed) return null;
    let heading =
      query.categoryId !== null
        ? (listed.items[0]?.category_name ?? category?.name ?? 'No articles found in this category')
        : 'All Articles';
    if (query.categoryId !== null && listed.pageInfo.totalItems === 0) heading = 'No articles found in this category';
    return { ...listed, heading, category, search, unknownCategory };
  }
  const ftsQuery = search !== null ? buildFtsQuery(search) : null;
  const noMatchPossible = unknownCategory || (search !== null && ftsQuery === null);
  const filter = {
    categoryId: query.categoryId ?? undefined,
    ftsQuery: ftsQuery ?? undefined,
  };
  const total = noMatchPossible ? 0 : await countBlogs(db, filter);
  const pageInfo = paginate(query.page, LIST_PAGE_SIZE, total);
  if (query.page > pageInfo.totalPages) return null;
  const items = noMatchPossible ? [] : await listBlogSummaries(db, filter, { limit: LIST_PAGE_SIZE, offset: pageInfo.offset });

  let heading: string;
  if (search !== null) heading = `Search Results for: "${search}"`;
  else if (query.categoryId !== null) heading = items[0]?.category_name ?? category?.name ?? 'No articles found in this category';
  else heading = 'All Articles';
  if (query.categoryId !== null && search === null && total === 0) heading = 'No articles found in this category';
  return { items, pageInfo, heading, category, search, unknownCategory };
}

export interface BlogDetail extends Blog {
  comments: Comment[];
}

/** An article with its comments; readers get only what is published and due, admins any. */
export async function getBlogDetail(db: Db, id: number, audience: Audience = 'public'): Promise<BlogDetail | null> {
  const blog = audience === 'admin' ? await findBlogById(db, id) : await findPublicBlogById(db, id);
  if (!blog) return null;
  return { ...blog, comments: await listCommentsForBlog(db, id) };
}

export interface ArticlePage extends BlogDetail {
  /** Plain-text opening of the content, for the page description and social cards. */
  summary: string;
  /** The page loads the math stylesheet (self-hosted fonts) only when it has formulas. */
  hasMath: boolean;
  /** The page loads the copy-code script only when it has code blocks. */
  hasCode: boolean;
  /** The Older and Newer links: in the whole site, and within the article's category. */
  adjacent: { site: Adjacent; category: Adjacent | null };
}

export interface Adjacent {
  older: AdjacentBlog | null;
  newer: AdjacentBlog | null;
}

/** The ids an article page names in its Older and Newer links. */
export function linkedIds(page: ArticlePage): number[] {
  const pairs = [page.adjacent.site, page.adjacent.category].filter((pair): pair is Adjacent => pair !== null);
  return [...new Set(pairs.flatMap((pair) => [pair.older?.id, pair.newer?.id]).filter((id): id is number => id !== undefined))];
}

/** Everything the article page shows; the admin's preview shows any article the same way. */
export async function getArticlePage(db: Db, id: number, audience: Audience = 'public'): Promise<ArticlePage | null> {
  const detail = await getBlogDetail(db, id, audience);
  if (!detail) return null;
  // The stored HTML as readers get it: formulas typeset, code highlighted (render-article.ts).
  const [rendered, site, category] = await Promise.all([
    renderArticleHtml(detail.content),
    findAdjacentBlogs(db, detail),
    detail.category_id !== null ? findAdjacentBlogs(db, detail, detail.category_id) : null,
  ]);
  return {
    ...detail,
    content: rendered.html,
    summary: summarizeHtml(detail.content),
    hasMath: rendered.hasMath,
    hasCode: rendered.hasCode,
    adjacent: { site, category },
  };
}

/** The newest articles for the RSS feed, each with its body as readers get it (MathML and all). */
export async function getFeed(db: Db): Promise<FeedItem[]> {
  const summaries = await listBlogSummaries(db, {}, { limit: FEED_LIMIT, offset: 0 });
  const contents = new Map(
    (
      await listPublicContents(
        db,
        summaries.map((blog) => blog.id),
      )
    ).map((row) => [row.id, row.content]),
  );
  return Promise.all(
    summaries.map(async (blog) => ({ ...blog, html: (await renderArticleHtml(contents.get(blog.id) ?? '')).html })),
  );
}

/** What the sitemap lists: every article with its last change, and every category. */
export async function getSitemapEntries(db: Db) {
  const [blogs, categories] = await Promise.all([listBlogIds(db), listCategories(db)]);
  return { blogs, categories };
}

/**
 * Page `page` of Downloads (DOWNLOAD_PAGE_SIZE rows), or null past its last page. One page of
 * every PDF on the site was 4.8 MB at 100,000 articles, rendered again before each save of an
 * article with a PDF answered (250 ms): pages keep a save's render the same at any size.
 */
export async function getDownloadsPage(db: Db, page: number): Promise<Paged<DownloadRow> | null> {
  const ids = await cachedRead(db, 'pdf-ids', () => listPublicPdfBlogIds(db));
  return pageOfIds(ids, page, DOWNLOAD_PAGE_SIZE, (slice) => listDownloadRows(db, slice));
}

export type DownloadRow = Awaited<ReturnType<typeof listDownloadRows>>[number];

export function getTopViewed(db: Db): Promise<TopViewedItem[]> {
  return cachedRead(db, 'top-viewed', () => listTopViewed(db, TOP_VIEWED_LIMIT));
}

export function getRecent(db: Db): Promise<RecentItem[]> {
  return cachedRead(db, 'recent', () => listRecent(db, RECENT_LIMIT));
}

export function getSlides(db: Db): Promise<SlideDto[]> {
  return cachedRead(db, 'slides', () => listSlides(db));
}

export interface SiteChrome {
  categories: Category[];
  navMain: Category[];
  navMore: Category[];
  footerQuick: Category[];
  footerImportant: Category[];
}

/**
 * The categories as the nav and footer split them (docs/product.md#public-screens). Only categories with an
 * article readers can see are offered: one holding only drafts would lead to an empty page (the
 * admin screens list every category through the API).
 */
export function getSiteChrome(db: Db): Promise<SiteChrome> {
  return cachedRead(db, 'chrome', async () => splitChrome(await listPublicCategories(db)));
}

function splitChrome(categories: Category[]): SiteChrome {
  return {
    categories,
    navMain: categories.slice(0, NAV_MAIN_CATEGORIES),
    navMore: categories.slice(NAV_MAIN_CATEGORIES),
    footerQuick: categories.slice(0, FOOTER_QUICK_CATEGORIES),
    footerImportant: categories.slice(FOOTER_QUICK_CATEGORIES, FOOTER_QUICK_CATEGORIES + FOOTER_IMPORTANT_CATEGORIES),
  };
}
