import type { AppBase, AppContext } from '../context.ts';
import type { RenderedSearchPage, SearchPageDecision, SearchPool } from '../ports.ts';
import { extractPdfTextOffThread } from './pdf-text.ts';
import { indexUnreadPdfs } from './search-index.ts';
import { SearchUnavailable, startSearchPool } from './search-pool.ts';
import { searchInProcess } from './search-page.ts';
import { answerSearchPage } from './search-page-answer.ts';
import { createSearchPageRender } from './search-page-render.ts';
import { createSearchIndex } from './search-vocabulary.ts';

/** The search services the front server puts in the app context. */
export type SearchServices = Pick<AppContext, 'search' | 'searchPages' | 'pdfText' | 'searchIndex'>;

/**
 * The front server's search services: the search worker (the API's searches), the PDF reader
 * threads and this thread's word index, for the app context (`services`); once that context is
 * made, `start` reads in the background the PDFs attached before they were searchable (by one
 * process only, `readOldPdfs`: several would read the same files). With `renderSearchPage` (a
 * render worker's search and render of a search page) the search pages are answered off this
 * thread. `stop` ends both.
 */
export function startSearchServices(
  base: AppBase,
  log: (line: string) => void = console.log,
  readOldPdfs = true,
  renderSearchPage?: (url: string, decision: SearchPageDecision, limitMs: number) => Promise<RenderedSearchPage>,
): { services: SearchServices; start: (context: AppContext) => void; stop: () => Promise<void> } {
  let context: AppContext | undefined;
  const inWorker = base.config.databasePath !== ':memory:';
  // This thread's searches (without a worker, or when it cannot take one), Astro's and the pool's alike.
  const searchIndex = createSearchIndex(base.db, base.sqlite);
  const worker = inWorker
    ? startSearchPool({
        databasePath: base.config.databasePath,
        fallback: (request) => searchInProcess({ db: base.db, sqlite: base.sqlite, searchIndex }, request),
      })
    : undefined;
  // Its own methods, not bound: the metrics wrap `run` on this object (metrics/instrument.ts).
  const search: SearchPool | undefined = worker && {
    run: (request) => worker.run(request),
    renderPage: renderSearchPage
      ? createSearchPageRender({ render: renderSearchPage })
      : () => Promise.reject(new SearchUnavailable('no-worker')),
    hasWorker: () => worker.hasWorker(),
    close: () => worker.close(),
  };
  const services: SearchServices = {
    pdfText: extractPdfTextOffThread,
    searchIndex,
    ...(search ? { search } : {}),
    // Reached only through the context, so only once `start` gave it.
    ...(search && renderSearchPage
      ? { searchPages: (url: string, clientIp: string) => answerSearchPage(context!, url, clientIp) }
      : {}),
  };
  const stopping = new AbortController();
  let backfill: Promise<unknown> = Promise.resolve();
  return {
    services,
    start(whole) {
      context = whole;
      backfill = (readOldPdfs ? indexUnreadPdfs(whole, stopping.signal) : Promise.resolve(0)).then(
        (count) => count > 0 && log(`Search: indexed the text of ${count} attached PDF${count === 1 ? '' : 's'}`),
        (error: unknown) => console.error('[search] indexing attached PDFs failed:', error),
      );
    },
    async stop() {
      stopping.abort();
      await backfill;
      await search?.close();
    },
  };
}
