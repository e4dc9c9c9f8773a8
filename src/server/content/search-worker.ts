// The search thread: its own read-only connection to the database file, so ranking thousands of
// matches never holds up the thread that serves readers. It answers one job at a time.
import { parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import type { Database } from '../db/schema.ts';
import { runSearch, type SearchRequest } from './search-run.ts';
import { createVocabularyCache } from './search-vocabulary.ts';

export interface SearchJob {
  id: number;
  request: SearchRequest;
}

const { databasePath } = workerData as { databasePath: string };
const sqlite = new SQLite(databasePath, { readonly: true, fileMustExist: true });
sqlite.pragma('busy_timeout = 5000');
const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
const loadVocabulary = createVocabularyCache(db, () => sqlite.pragma('data_version', { simple: true }) as number);

parentPort!.on('message', (job: SearchJob) => {
  runSearch(db, job.request, loadVocabulary).then(
    (answer) => parentPort!.postMessage({ id: job.id, answer }),
    (error: unknown) => parentPort!.postMessage({ id: job.id, error: String(error) }),
  );
});
parentPort!.postMessage({ ready: true });
