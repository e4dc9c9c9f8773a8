import type { AppContext } from '../context.ts';
import { isSearchUnavailable } from './search-pool.ts';
import type { SearchPageAnswer, SearchPageDecision } from '../ports.ts';
import { BUSY_RETRY_SECONDS, decideSearchPage, describeSearchRefusal, readBlogsQuery } from './search-page.ts';

/** How the front server answers a /blogs request with a search (its kinds are described in ports.ts). */
export type { SearchPageAnswer } from '../ports.ts';

function retryAfterOf(decision: SearchPageDecision): number {
  return decision.refusal === 'limited' ? decision.retryAfterSeconds : BUSY_RETRY_SECONDS;
}

/** Has the page searched and rendered; `no-worker` and `busy` (or `timeout`) come back as what they are. */
async function renderInWorker(app: AppContext, url: string, decision: SearchPageDecision): Promise<SearchPageAnswer | 'busy'> {
  try {
    return { kind: 'page', page: await app.search!.renderPage({ url, decision }) };
  } catch (error) {
    if (!isSearchUnavailable(error)) throw error;
    return error.reason === 'no-worker' ? { kind: 'astro', decision } : 'busy';
  }
}

/**
 * A search page, answered off the serving thread: this thread counts the search against the
 * address's allowance (the shared store), then a render worker searches and renders the page (or
 * the polite 429 page). When the search pages' queue is full, or the page ran over its time, the
 * busy page is rendered instead, in the refused pages' lane; when that is full too,
 * the answer is the same words as plain text.
 */
export async function answerSearchPage(app: AppContext, url: string, clientIp: string): Promise<SearchPageAnswer> {
  const queryAt = url.indexOf('?');
  const query = readBlogsQuery(new URLSearchParams(queryAt === -1 ? '' : url.slice(queryAt + 1)));
  const decision = decideSearchPage(app, query, clientIp);
  if (!app.search) return { kind: 'astro', decision };
  let answer = await renderInWorker(app, url, decision);
  let refused = decision;
  if (answer === 'busy' && decision.refusal === null) {
    refused = { refusal: 'busy' };
    answer = await renderInWorker(app, url, refused);
  }
  if (answer !== 'busy') return answer;
  const { status, message } = describeSearchRefusal(refused)!;
  return { kind: 'plain', status, retryAfterSeconds: retryAfterOf(refused), message };
}
