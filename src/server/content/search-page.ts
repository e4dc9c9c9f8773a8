import type { AppContext } from '../context.ts';
import { findCategoryById, type Category } from '../db/repositories/categories.ts';
import { createRateLimiter, retryAfterSeconds, type RateLimitDecision, type RateLimiter } from '../api/rate-limit.ts';
import { paginate, parsePageParam, type PageInfo } from '../../shared/pagination.ts';
import { parseId } from '../../shared/ids.ts';
import { normalizeSearchText } from './search.ts';
import { runSearch, RESULT_CAP, type SearchAnswer, type SearchHit, type SearchRequest } from './search-run.ts';
import { createSearchIndex } from './search-vocabulary.ts';
import type { SearchIndex, SearchPageDecision } from '../ports.ts';

export type { SearchPageDecision } from '../ports.ts';

// One limiter per server process, made on first use; only Astro's bundle loads this module.
// Counted in the shared hit store when the front server installed one (every process counts alike).
let sharedLimiter: RateLimiter | undefined;
let limiterStore: AppContext['hits'];

/** Counts one search against the address (RATE_LIMIT_SEARCH_IP per RATE_LIMIT_SEARCH_WINDOW_SECONDS). */
function takeSearchAllowance(app: AppContext, clientIp: string): RateLimitDecision {
  if (!sharedLimiter || limiterStore !== app.hits) {
    sharedLimiter = createRateLimiter({
      limit: app.config.rateLimits.searchIp,
      windowMs: app.config.rateLimits.searchWindowSeconds * 1000,
      shared: app.hits && { store: app.hits, bucket: 'search-ip' },
    });
    limiterStore = app.hits;
  }
  return sharedLimiter.take(clientIp);
}

/** The query of a /blogs request, as the page reads it. */
export interface BlogsQuery {
  /** Null when `page` is not a positive whole number. */
  page: number | null;
  categoryId: number | null;
  /** `page` and `category` are both valid (else the page is a 404). */
  validQuery: boolean;
  /** Normalized; null for no search (the plain list). */
  searchText: string | null;
}

export function readBlogsQuery(params: URLSearchParams): BlogsQuery {
  const page = parsePageParam(params.get('page'));
  const categoryRaw = params.get('category') ?? '';
  const categoryId = categoryRaw === '' ? null : parseId(categoryRaw);
  return {
    page,
    categoryId,
    validQuery: page !== null && (categoryRaw === '' || categoryId !== null),
    searchText: normalizeSearchText(params.get('search')),
  };
}

/** A search the page runs, so one that counts against the address's allowance. */
export function isCountedSearch(query: BlogsQuery): boolean {
  return query.validQuery && query.searchText !== null;
}

/**
 * Whether a search may run now for this address: the one place that decides it, counting the
 * search against the address's allowance. The search page (`search-page-answer.ts`, or the page
 * itself when the front server did not decide, `decideSearchPage`) and GET /api/blogs?search=
 * all ask here; only what each says to a refused reader differs.
 */
export function decideSearch(app: AppContext, clientIp: string): SearchPageDecision {
  const allowance = takeSearchAllowance(app, clientIp);
  return allowance.allowed ? { refusal: null } : { refusal: 'limited', retryAfterSeconds: retryAfterSeconds(allowance) };
}

/**
 * A /blogs request's decision: what the front server already `decided` (passed to the page), else
 * `decideSearch` when the query searches at all (a plain list counts nothing).
 */
export function decideSearchPage(
  app: AppContext,
  query: BlogsQuery,
  clientIp: string,
  decided?: SearchPageDecision,
): SearchPageDecision {
  if (decided) return decided;
  return isCountedSearch(query) ? decideSearch(app, clientIp) : { refusal: null };
}

/** The words (docs/product.md#search) for a refused search page, and its status. */
export function describeSearchRefusal(decision: SearchPageDecision): { status: 429 | 503; message: string } | null {
  if (decision.refusal === 'limited') {
    const seconds = decision.retryAfterSeconds;
    return {
      status: 429,
      message: `You have searched a lot in a short time. Please wait ${seconds} second${seconds === 1 ? '' : 's'} and try again.`,
    };
  }
  if (decision.refusal === 'busy')
    return { status: 503, message: 'Search is busy right now. Please try again in a few seconds.' };
  return null;
}

/** Seconds a busy search page asks the reader to wait (Retry-After). */
export const BUSY_RETRY_SECONDS = 5;

/** Word indexes made for contexts that carry none (a render worker's), one per connection. */
const indexesMade = new WeakMap<AppContext['sqlite'], SearchIndex>();

/**
 * A search in this thread, on the app's own connection: a render worker's search page, or
 * without the search worker (astro dev, tests). A context without a word index (a render
 * worker's) has one made at its first search and kept with its connection.
 */
export async function searchInProcess(
  app: Pick<AppContext, 'db' | 'sqlite' | 'searchIndex'>,
  request: SearchRequest,
): Promise<SearchAnswer> {
  let index = app.searchIndex ?? indexesMade.get(app.sqlite);
  if (!index) {
    index = createSearchIndex(app.db, app.sqlite);
    indexesMade.set(app.sqlite, index);
  }
  return runSearch(app.db, request, index);
}

export interface SearchResultsPage {
  heading: string;
  search: string;
  category: Category | null;
  unknownCategory: boolean;
  hits: SearchHit[];
  /** Matches counted, at most RESULT_CAP; `capped` when there were more. */
  total: number;
  capped: boolean;
  correctedTo: string | null;
  pageInfo: PageInfo;
}

export interface SearchResultsQuery {
  categoryId: number | null;
  /** Already normalized (normalizeSearchText). */
  search: string;
  page: number;
  pageSize: number;
}

/** The search a /blogs page runs: the front server runs it ahead of the render with the same words. */
export function searchRequestOf(query: SearchResultsQuery): SearchRequest {
  return { text: query.search, categoryId: query.categoryId, page: query.page, pageSize: query.pageSize };
}

/**
 * The /blogs search results, ranked where the page renders: in a render worker, which has no
 * search worker and searches on its own connection (search-page-render.ts), or through the search
 * worker where the context has one. Null when the page is past the last (a 404, as for the plain
 * list). Throws SearchUnavailable when the search queue is full or the query ran out of time.
 */
export async function searchResultsPage(app: AppContext, query: SearchResultsQuery): Promise<SearchResultsPage | null> {
  const category = query.categoryId !== null ? ((await findCategoryById(app.db, query.categoryId)) ?? null) : null;
  const unknownCategory = query.categoryId !== null && !category;
  const request = searchRequestOf(query);
  const answer = unknownCategory
    ? { total: 0, capped: false, hits: [], correctedTo: null }
    : await (app.search ? app.search.run(request) : searchInProcess(app, request));
  const pageInfo = paginate(query.page, query.pageSize, answer.total);
  if (query.page > pageInfo.totalPages) return null;
  return {
    heading: `Search Results for: "${query.search}"`,
    search: query.search,
    category,
    unknownCategory,
    ...answer,
    pageInfo,
  };
}

/** "1 result", "24 results", "1,000+ results". */
export function describeResultCount(total: number, capped: boolean): string {
  if (capped) return `${RESULT_CAP.toLocaleString('en-US')}+ results`;
  return `${total.toLocaleString('en-US')} ${total === 1 ? 'result' : 'results'}`;
}

/** For the /blogs page, which reads the search's answers from here. */
export { isSearchUnavailable } from './search-pool.ts';
