import type { AppContext } from '../context.ts';
import { AppError } from '../errors.ts';
import { findPublicBlogsByIds } from '../db/repositories/blog-lists.ts';
import type { Blog } from '../db/repositories/blogs.ts';
import { isSearchUnavailable } from './search-pool.ts';
import { decideSearch, searchInProcess } from './search-page.ts';
import type { SearchRequest } from './search-run.ts';

export interface ReaderApiSearch {
  /** Already normalized (normalizeSearchText). */
  search: string;
  categoryId: number | null;
  limit: number;
  offset: number;
}

export interface ReaderApiSearchResult {
  blogs: Blog[];
  /** Matches, at most RESULT_CAP (as the search page counts them). */
  total: number;
  /** More matched than RESULT_CAP. */
  capped: boolean;
}

/**
 * GET /api/blogs?search= for readers: ranked in the search worker exactly as /blogs?search= is
 * (capped, misspellings looked up), counted against the same per-address allowance; this thread
 * only reads the slice's rows by id. 429 over the allowance, 503 while the search is busy.
 */
export async function searchBlogsForReaders(
  app: AppContext,
  query: ReaderApiSearch,
  clientIp: string,
): Promise<ReaderApiSearchResult> {
  const decision = decideSearch(app, clientIp);
  if (decision.refusal === 'limited') {
    const seconds = decision.retryAfterSeconds;
    throw new AppError(
      'rate_limited',
      `Too many searches from your address. Please try again in ${seconds} second${seconds === 1 ? '' : 's'}.`,
      {
        headers: { 'Retry-After': String(seconds) },
      },
    );
  }
  const request: SearchRequest = {
    text: query.search,
    categoryId: query.categoryId,
    page: 1,
    pageSize: query.limit,
    idSlice: { offset: query.offset, limit: query.limit },
  };
  try {
    const answer = await (app.search ? app.search.run(request) : searchInProcess(app, request));
    return { blogs: await findPublicBlogsByIds(app.db, answer.ids ?? []), total: answer.total, capped: answer.capped };
  } catch (error) {
    if (!isSearchUnavailable(error)) throw error;
    throw new AppError('unavailable', 'Search is busy right now. Please try again in a few seconds.', {
      headers: { 'Retry-After': '5' },
    });
  }
}
