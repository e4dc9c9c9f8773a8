// The search thread: its own read-only connection to the database file, so ranking thousands of
// matches never holds up the thread that serves readers. It answers one search at a time with the
// ranked page of hits; a render worker renders the search page from that (search-page-render.ts),
// so this thread loads no copy of Astro's server.
import os from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { openDatabase } from '../db/client.ts';
import { runSearch } from './search-run.ts';
import { SEARCH_NICE } from './search-pool.ts';
import type { SearchWorkerData, SearchWorkerJob, SearchWorkerMessage } from './search-pool.ts';
import { createSearchIndex } from './search-vocabulary.ts';

// Below the serving threads on the CPU (Linux keeps a nice value per thread): with 8 connections
// searching, readers kept under half their throughput while this thread ran at their priority.
// A search waits for a core instead; past its time it is answered "try again" (search-pool.ts).
try {
  os.setPriority(SEARCH_NICE);
} catch {
  // Not allowed here: the thread keeps the process's priority.
}

const { databasePath } = workerData as SearchWorkerData;
// Read-only, with prepared statements kept for reuse (every search runs the same few).
const { db, sqlite } = openDatabase(databasePath, { readOnly: true });
const searchIndex = createSearchIndex(db, sqlite);
const port = parentPort!;

port.on('message', (job: SearchWorkerJob) => {
  runSearch(db, job.request, searchIndex).then(
    (answer) => port.postMessage({ id: job.id, answer } satisfies SearchWorkerMessage),
    (error: unknown) => port.postMessage({ id: job.id, error: String(error) } satisfies SearchWorkerMessage),
  );
});
port.postMessage({ ready: true } satisfies SearchWorkerMessage);
