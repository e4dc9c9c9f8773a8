// The search thread: its own read-only connection to the database file, so ranking thousands of
// matches never holds up the thread that serves readers. It answers one job at a time: a search
// (the API's ranked ids), or a whole search page, searched and rendered here by Astro's built
// server, so no search page is rendered on the serving thread.
import os from 'node:os';
import { pathToFileURL } from 'node:url';
import { parentPort, workerData } from 'node:worker_threads';
import { noPageCache, setAppContext } from '../context.ts';
import { openDatabase } from '../db/client.ts';
import { getAstroRender, renderInProcess, type AstroRender } from '../page-store/astro-render.ts';
import { answerDigestsInThread } from '../page-store/sync-digest.ts';
import { narrowAnswerPolicy } from '../page-store/narrow-policy.ts';
import { runSearch } from './search-run.ts';
import { SEARCH_NICE } from './search-pool.ts';
import type { RenderedSearchPage, SearchPageJob, SearchWorkerData, SearchWorkerJob, SearchWorkerMessage } from './search-pool.ts';
import { createSearchIndex } from './search-vocabulary.ts';

// Below the serving threads on the CPU (Linux keeps a nice value per thread): with 8 connections
// searching, readers kept under half their throughput while this thread ran at their priority.
// A search waits for a core instead; past its time it is answered "try again" (search-pool.ts).
try {
  os.setPriority(SEARCH_NICE);
} catch {
  // Not allowed here: the thread keeps the process's priority.
}

const { databasePath, pages } = workerData as SearchWorkerData;
// Read-only, with prepared statements kept for reuse (every search runs the same few).
const { db, sqlite } = openDatabase(databasePath, { readOnly: true });
const searchIndex = createSearchIndex(db, sqlite);
const port = parentPort!;

let render: AstroRender | undefined;
if (pages) {
  // The pages read this connection through the app context, as in a render worker; with no search
  // pool installed, a page searches in-process, which here is this thread, with the thread's index.
  setAppContext({ config: pages.config, db, sqlite, pageCache: noPageCache, searchIndex });
  // Astro's CSP digests of each search page, answered here rather than by a thread-pool job each.
  answerDigestsInThread();
  await import(pathToFileURL(pages.entry).href);
  render = getAstroRender();
  if (!render) throw new Error('Astro bundle did not register its renderer (src/fetch.ts)');
}

async function renderPage(job: SearchPageJob): Promise<RenderedSearchPage> {
  if (!render || !pages) throw new Error('this search worker renders no pages');
  const { status, headers, body } = await renderInProcess(render, pages.config.publicOrigin, job.url, {
    searchPage: job.decision,
  });
  // Here rather than on the serving thread: decoding and hashing the page per search was its work.
  narrowAnswerPolicy(headers, body);
  // Says which thread rendered the page (config.testSeams: test builds only).
  if (pages.config.testSeams.markAnswers) headers['x-rendered-by'] = 'search-worker';
  return { status, headers, body };
}

port.on('message', (job: SearchWorkerJob) => {
  if ('page' in job) {
    renderPage(job.page).then(
      // The body's memory is handed over, not copied.
      (page) => port.postMessage({ id: job.id, page } satisfies SearchWorkerMessage, [page.body.buffer as ArrayBuffer]),
      (error: unknown) => port.postMessage({ id: job.id, error: String(error) } satisfies SearchWorkerMessage),
    );
    return;
  }
  runSearch(db, job.request, searchIndex).then(
    (answer) => port.postMessage({ id: job.id, answer } satisfies SearchWorkerMessage),
    (error: unknown) => port.postMessage({ id: job.id, error: String(error) } satisfies SearchWorkerMessage),
  );
});
port.postMessage({ ready: true } satisfies SearchWorkerMessage);
