import type { AppContext } from '../context.ts';
import { extractPdfTextOffThread } from './pdf-text.ts';
import { indexUnreadPdfs } from './search-index.ts';
import { startSearchPool } from './search-pool.ts';
import { searchInProcess } from './search-page.ts';
import { answerSearchPage } from './search-page-answer.ts';

/**
 * The front server's search services: the search worker and the PDF reader threads, installed on
 * the app context, then PDFs attached before they were searchable are read in the background
 * (by one process only, `readOldPdfs`: several would read the same files). With `astroEntry`
 * (Astro's built server) the search worker also renders the search pages. Returns the stop function.
 */
export function startSearchServices(
  context: AppContext,
  log: (line: string) => void = console.log,
  readOldPdfs = true,
  astroEntry?: string,
): () => Promise<void> {
  if (context.config.databasePath !== ':memory:') {
    // The worker purges nothing, and URL objects cannot be copied to a thread.
    const config = { ...context.config, cdn: { ...context.config.cdn, purgeVarnish: [] } };
    context.search = startSearchPool({
      databasePath: context.config.databasePath,
      fallback: (request) => searchInProcess(context, request),
      pages: astroEntry ? { entry: astroEntry, config } : undefined,
    });
    if (astroEntry) context.searchPages = (url, clientIp) => answerSearchPage(context, url, clientIp);
  }
  context.pdfText = extractPdfTextOffThread;
  const stop = new AbortController();
  const backfill = (readOldPdfs ? indexUnreadPdfs(context, stop.signal) : Promise.resolve(0)).then(
    (count) => count > 0 && log(`Search: indexed the text of ${count} attached PDF${count === 1 ? '' : 's'}`),
    (error: unknown) => console.error('[search] indexing attached PDFs failed:', error),
  );
  return async () => {
    stop.abort();
    await backfill;
    context.searchPages = undefined;
    await context.search?.close();
    context.search = undefined;
  };
}
