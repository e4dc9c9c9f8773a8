import type { RenderedSearchPage, SearchAnswer, SearchDone, SearchPageJob, SearchPageLocals, SearchRequest } from '../ports.ts';
import { SearchUnavailable } from './search-pool.ts';

export interface SearchPageRenderOptions {
  /** Runs a search in the search worker. */
  run: (request: SearchRequest) => Promise<SearchAnswer>;
  /** Renders the page on a render worker, told what was decided and found. */
  render: (url: string, locals: SearchPageLocals) => Promise<RenderedSearchPage>;
  /**
   * Search pages under way at once, each searched then rendered (default 1). One at a time keeps
   * a process's search work on one thread at any moment, as when one search thread did both:
   * with the search of one page beside the render of another, 8 searching connections took
   * readers down to 0.78x of alone (target 0.8x), against 0.86x.
   */
  atOnce?: number;
  /** Search pages waiting for their turn. */
  maxWaiting?: number;
  /** Refused searches' pages waiting (beyond them the caller answers without a page). */
  maxRefusals?: number;
}

interface Waiting extends SearchPageJob {
  resolve: (page: RenderedSearchPage) => void;
  reject: (error: unknown) => void;
}

/**
 * A search page off the serving thread, in two steps: the search worker (no copy of Astro, so a
 * small thread) ranks the matches, then a render worker (which holds Astro's server anyway)
 * renders the page with that answer. The search worker used to render the pages itself, with a
 * copy of Astro's server of its own. Pages are taken in turn from two bounded lanes, searches and
 * refused searches. Throws SearchUnavailable (`busy`, `timeout`) when the search could not run or
 * its page cannot wait.
 */
export function createSearchPageRender(options: SearchPageRenderOptions): (job: SearchPageJob) => Promise<RenderedSearchPage> {
  const atOnce = options.atOnce ?? 1;
  const maxWaiting = options.maxWaiting ?? 32;
  const maxRefusals = options.maxRefusals ?? 8;
  const searched: Waiting[] = [];
  // Refused searches' pages: cheap renders, taken in turn with the searched ones so neither starves.
  const refusals: Waiting[] = [];
  let lastWasRefusal = false;
  let active = 0;

  function next(): Waiting | undefined {
    const takeRefusal = refusals.length > 0 && (!lastWasRefusal || searched.length === 0);
    lastWasRefusal = takeRefusal;
    return takeRefusal ? refusals.shift() : searched.shift();
  }

  async function searchAndRender({ url, decision, search }: Waiting): Promise<RenderedSearchPage> {
    const done: SearchDone | null = search ? { request: search, answer: await options.run(search) } : null;
    return options.render(url, { decision, done });
  }

  function pump(): void {
    while (active < atOnce) {
      const job = next();
      if (!job) return;
      active++;
      searchAndRender(job)
        .then(job.resolve, job.reject)
        .finally(() => {
          active--;
          pump();
        });
    }
  }

  return (job) => {
    const refused = job.decision.refusal !== null;
    const lane = refused ? refusals : searched;
    if (lane.length >= (refused ? maxRefusals : maxWaiting)) return Promise.reject(new SearchUnavailable('busy'));
    return new Promise((resolve, reject) => {
      lane.push({ ...job, resolve, reject });
      pump();
    });
  };
}
