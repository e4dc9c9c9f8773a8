// The search thread: its own read-only connection to the database file, so ranking thousands of
// matches never holds up the thread that serves readers. It answers one job at a time.
import { parentPort, workerData } from 'node:worker_threads';
import { openDatabase } from '../db/client.ts';
import { readDataVersion } from '../db/repositories/site-settings.ts';
import { runSearch, type SearchRequest } from './search-run.ts';
import { createVocabularyCache } from './search-vocabulary.ts';

export interface SearchJob {
  id: number;
  request: SearchRequest;
}

const { databasePath } = workerData as { databasePath: string };
// Read-only, with prepared statements kept for reuse (every search runs the same few).
const { db, sqlite } = openDatabase(databasePath, { readOnly: true });
const loadVocabulary = createVocabularyCache(db, () => readDataVersion(sqlite));

parentPort!.on('message', (job: SearchJob) => {
  runSearch(db, job.request, loadVocabulary).then(
    (answer) => parentPort!.postMessage({ id: job.id, answer }),
    (error: unknown) => parentPort!.postMessage({ id: job.id, error: String(error) }),
  );
});
parentPort!.postMessage({ ready: true });
