import type { AppContext } from '../context.ts';
import { isSearchUnavailable } from './search-pool.ts';
import type { SearchPageAnswer, SearchPageDecision } from '../ports.ts';
import type { SearchRequest } from '../ports.ts';
import { LIST_PAGE_SIZE } from '../../shared/site-map/page-sizes.ts';
import {
  BUSY_RETRY_SECONDS,
  decideSearchPage,
  describeSearchRefusal,
  isCountedSearch,
  readBlogsQuery,
  searchRequestOf,
  type BlogsQuery,
} from './search-page.ts';

/** How the front server answers a /blogs request with a search (its kinds are described in ports.ts). */
export type { SearchPageAnswer } from '../ports.ts';

function retryAfterOf(decision: SearchPageDecision): number {
  return decision.refusal === 'limited' ? decision.retryAfterSeconds : BUSY_RETRY_SECONDS;
}

/** The search the page runs, or null when it searches nothing (a blank search, a bad page number). */
function searchOf(query: BlogsQuery): SearchRequest | null {
  if (!isCountedSearch(query)) return null;
  return searchRequestOf({
    categoryId: query.categoryId,
    search: query.searchText!,
    page: query.page!,
    pageSize: LIST_PAGE_SIZE,
  });
}

/** Has the page searched and rendered; `no-worker` and `busy` (or `timeout`) come back as what they are. */
async function renderInWorker(
  app: AppContext,
  url: string,
  decision: SearchPageDecision,
  search: SearchRequest | null,
): Promise<SearchPageAnswer | 'busy'> {
  try {
    return { kind: 'page', page: await app.search!.renderPage({ url, decision, search }) };
  } catch (error) {
    if (!isSearchUnavailable(error)) throw error;
    return error.reason === 'no-worker' ? { kind: 'astro', decision } : 'busy';
  }
}

/**
 * A search page, answered off the serving thread: this thread counts the search against the
 * address's allowance (the shared store), then the search worker searches and a render worker
 * renders the page (or the polite 429 page). When the search queue is full, or the search ran over
 * its time, the busy page is rendered instead, in the refused pages' lane; when that is full too,
 * the answer is the same words as plain text.
 */
export async function answerSearchPage(app: AppContext, url: string, clientIp: string): Promise<SearchPageAnswer> {
  const queryAt = url.indexOf('?');
  const query = readBlogsQuery(new URLSearchParams(queryAt === -1 ? '' : url.slice(queryAt + 1)));
  const decision = decideSearchPage(app, query, clientIp);
  if (!app.search) return { kind: 'astro', decision };
  let answer = await renderInWorker(app, url, decision, decision.refusal === null ? searchOf(query) : null);
  let refused = decision;
  if (answer === 'busy' && decision.refusal === null) {
    refused = { refusal: 'busy' };
    answer = await renderInWorker(app, url, refused, null);
  }
  if (answer !== 'busy') return answer;
  const { status, message } = describeSearchRefusal(refused)!;
  return { kind: 'plain', status, retryAfterSeconds: retryAfterOf(refused), message };
}
