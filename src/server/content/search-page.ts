import type { AppContext } from '../context.ts';
import type { Db } from '../db/client.ts';
import { findCategoryById, type Category } from '../db/repositories/categories.ts';
import { readDataVersion } from '../db/repositories/site-settings.ts';
import { createRateLimiter, type RateLimitDecision, type RateLimiter } from '../api/rate-limit.ts';
import { paginate, type PageInfo } from '../../shared/pagination.ts';
import { runSearch, RESULT_CAP, type SearchAnswer, type SearchHit, type SearchRequest } from './search-run.ts';
import { createVocabularyCache } from './search-vocabulary.ts';

export const SEARCH_RATE_WINDOW_MS = 10_000;

// One limiter per server process, made on first use; only Astro's bundle loads this module.
// Counted in the shared hit store when the front server installed one (every process counts alike).
let sharedLimiter: RateLimiter | undefined;
let limiterStore: AppContext['hits'];

/** Counts one search against the address (RATE_LIMIT_SEARCH_IP per 10 seconds). */
export function takeSearchAllowance(app: AppContext, clientIp: string): RateLimitDecision {
  if (!sharedLimiter || limiterStore !== app.hits) {
    sharedLimiter = createRateLimiter({
      limit: app.config.rateLimits.searchIp,
      windowMs: SEARCH_RATE_WINDOW_MS,
      shared: app.hits && { store: app.hits, bucket: 'search-ip' },
    });
    limiterStore = app.hits;
  }
  return sharedLimiter.take(clientIp);
}

const inProcessVocabulary = new WeakMap<Db, ReturnType<typeof createVocabularyCache>>();

/** Without the worker (astro dev, tests): the same search on the app's own connection. */
export function searchInProcess(app: Pick<AppContext, 'db' | 'sqlite'>, request: SearchRequest): Promise<SearchAnswer> {
  let load = inProcessVocabulary.get(app.db);
  if (!load) {
    load = createVocabularyCache(app.db, () => readDataVersion(app.sqlite));
    inProcessVocabulary.set(app.db, load);
  }
  return runSearch(app.db, request, load);
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

/**
 * The /blogs search results: ranked in the search worker, so the serving thread only waits.
 * Null when the page is past the last (a 404, as for the plain list). Throws SearchUnavailable
 * when the search queue is full or the query ran out of time.
 */
export async function searchResultsPage(app: AppContext, query: SearchResultsQuery): Promise<SearchResultsPage | null> {
  const category = query.categoryId !== null ? ((await findCategoryById(app.db, query.categoryId)) ?? null) : null;
  const unknownCategory = query.categoryId !== null && !category;
  const request: SearchRequest = { text: query.search, categoryId: query.categoryId, page: query.page, pageSize: query.pageSize };
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

export { isSearchUnavailable } from './search-pool.ts';
