import type { RenderedSearchPage, SearchPageDecision, SearchPageJob } from '../ports.ts';
import { SearchUnavailable } from './search-pool.ts';

/**
 * The wall time a search page may hold its render worker, searched and rendered; the same as any
 * page's render (the pool's own limit). A search takes milliseconds; past this one is taken as
 * runaway, answered "try again" and its worker replaced. The time counts waiting for a core (the
 * job runs at nice 10): 20 s was too short on a starved machine, where a reader's first search
 * waited over 20 s twice while the test server beside it pre-rendered at 0 pages/s.
 */
const SEARCH_PAGE_LIMIT_MS = 60_000;

/** By shape: the render pool's RenderTimedOut (the page store sits below this module). */
function isTimedOut(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { timedOut?: unknown }).timedOut === true;
}

export interface SearchPageRenderOptions {
  /**
   * Searches and renders the page on a render worker, told what was decided; rejects with an
   * error marked `timedOut` when the page held its worker `limitMs`.
   */
  render: (url: string, decision: SearchPageDecision, limitMs: number) => Promise<RenderedSearchPage>;
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
 * A search page off the serving thread: a render worker (which holds Astro's server anyway)
 * searches on its own connection and renders the page in one job, so no thread of its own loads
 * for the search pages. A process hands its workers one search page at a time: with two under
 * way (one searched beside another's render), 8 searching connections took readers down to 0.78x
 * of alone (target 0.8x), against 0.86x. Pages are taken in turn from two bounded lanes, searches
 * and refused searches. Throws SearchUnavailable: `busy` when its lane is full, `timeout` when it
 * ran over its time.
 */
export function createSearchPageRender(options: SearchPageRenderOptions): (job: SearchPageJob) => Promise<RenderedSearchPage> {
  const maxWaiting = options.maxWaiting ?? 32;
  const maxRefusals = options.maxRefusals ?? 8;
  const searched: Waiting[] = [];
  // Refused searches' pages: cheap renders, taken in turn with the searched ones so neither starves.
  const refusals: Waiting[] = [];
  let lastWasRefusal = false;
  let busy = false;

  function next(): Waiting | undefined {
    const takeRefusal = refusals.length > 0 && (!lastWasRefusal || searched.length === 0);
    lastWasRefusal = takeRefusal;
    return takeRefusal ? refusals.shift() : searched.shift();
  }

  function pump(): void {
    if (busy) return;
    const job = next();
    if (!job) return;
    busy = true;
    options
      .render(job.url, job.decision, SEARCH_PAGE_LIMIT_MS)
      .then(job.resolve, (error: unknown) => job.reject(isTimedOut(error) ? new SearchUnavailable('timeout') : error))
      .finally(() => {
        busy = false;
        pump();
      });
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
