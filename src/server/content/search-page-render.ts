import type { RenderedSearchPage, SearchAnswer, SearchDone, SearchPageJob, SearchPageLocals, SearchRequest } from '../ports.ts';
import { LIST_PAGE_SIZE } from '../../shared/site-map/page-sizes.ts';
import { SearchUnavailable } from './search-pool.ts';
import { isCountedSearch, readBlogsQuery, searchRequestOf } from './search-page.ts';

export interface SearchPageRenderOptions {
  /** Runs a search in the search worker. */
  run: (request: SearchRequest) => Promise<SearchAnswer>;
  /** Renders the page on a render worker, told what was decided and found. */
  render: (url: string, locals: SearchPageLocals) => Promise<RenderedSearchPage>;
  /**
   * Search pages on the render workers at once. Each holds a worker's slot that a reader's miss or
   * a save's hot page would take, so they are few: a burst of searches waits here, not there.
   */
  maxRendering?: number;
  /** Searched pages waiting for their render. */
  maxWaiting?: number;
  /** Refused searches' pages waiting (beyond them the caller answers without a page). */
  maxRefusals?: number;
}

interface Waiting {
  url: string;
  locals: SearchPageLocals;
  resolve: (page: RenderedSearchPage) => void;
  reject: (error: unknown) => void;
}

/** The search a /blogs url runs, or null when its page searches nothing (a blank search, a bad page number). */
function searchOf(url: string): SearchRequest | null {
  const queryAt = url.indexOf('?');
  const query = readBlogsQuery(new URLSearchParams(queryAt === -1 ? '' : url.slice(queryAt + 1)));
  if (!isCountedSearch(query)) return null;
  return searchRequestOf({
    categoryId: query.categoryId,
    search: query.searchText!,
    page: query.page!,
    pageSize: LIST_PAGE_SIZE,
  });
}

/**
 * A search page off the serving thread, in two steps: the search worker (no copy of Astro, so a
 * small thread) ranks the matches, then a render worker (which holds Astro's server anyway)
 * renders the page with that answer. The search worker used to render the pages itself, with a
 * copy of Astro's server of its own: about 45 MB more in each serving process while anyone searched.
 * Throws SearchUnavailable (`busy`, `timeout`) when the search could not run or its page cannot wait.
 */
export function createSearchPageRender(options: SearchPageRenderOptions): (job: SearchPageJob) => Promise<RenderedSearchPage> {
  const maxRendering = options.maxRendering ?? 2;
  const maxWaiting = options.maxWaiting ?? 32;
  const maxRefusals = options.maxRefusals ?? 8;
  const searched: Waiting[] = [];
  // Refused searches' pages: cheap renders, taken in turn with the searched ones so neither starves.
  const refusals: Waiting[] = [];
  let lastWasRefusal = false;
  let rendering = 0;

  function next(): Waiting | undefined {
    const takeRefusal = refusals.length > 0 && (!lastWasRefusal || searched.length === 0);
    lastWasRefusal = takeRefusal;
    return takeRefusal ? refusals.shift() : searched.shift();
  }

  function pump(): void {
    while (rendering < maxRendering) {
      const job = next();
      if (!job) return;
      rendering++;
      options
        .render(job.url, job.locals)
        .then(job.resolve, job.reject)
        .finally(() => {
          rendering--;
          pump();
        });
    }
  }

  function enqueue(url: string, locals: SearchPageLocals): Promise<RenderedSearchPage> {
    const refused = locals.decision.refusal !== null;
    const lane = refused ? refusals : searched;
    if (lane.length >= (refused ? maxRefusals : maxWaiting)) return Promise.reject(new SearchUnavailable('busy'));
    return new Promise((resolve, reject) => {
      lane.push({ url, locals, resolve, reject });
      pump();
    });
  }

  return async ({ url, decision }) => {
    const request = decision.refusal === null ? searchOf(url) : null;
    const done: SearchDone | null = request ? { request, answer: await options.run(request) } : null;
    return enqueue(url, { decision, done });
  };
}
