import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Starting a worker loads the search modules anew: seconds on a busy machine.
const WORKER_TEST_MS = 60_000;
import { migrateToLatest, openDatabase, type OpenedDatabase } from '../db/client.ts';
import { insertBlog } from '../db/repositories/blogs.ts';
import { buildBlogWrite } from '../../../tests/support/builders.ts';
import { isSearchUnavailable, SEARCH_NICE, startSearchPool, type SearchWorkerPool } from './search-pool.ts';
import { emptyAnswer, type SearchRequest } from './search-run.ts';

const request: SearchRequest = { text: 'photosynthesis', categoryId: null, page: 1, pageSize: 5 };
let dir: string;
let opened: OpenedDatabase;
let databasePath: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'search-pool-'));
  databasePath = path.join(dir, 'site.sqlite');
  opened = openDatabase(databasePath);
  await migrateToLatest(opened.db);
  await insertBlog(opened.db, buildBlogWrite({ title: 'Plants' }), 'Photosynthesis in leaves.');
});

afterAll(() => {
  opened.sqlite.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function writeWorker(name: string, source: string): URL {
  const file = path.join(dir, name);
  fs.writeFileSync(file, source);
  return new URL(`file://${file}`);
}

describe('startSearchPool', () => {
  it(
    'searches in its worker, on its own connection to the file',
    async () => {
      const pool = startSearchPool({ databasePath, fallback: () => Promise.reject(new Error('fallback used')) });
      try {
        const answer = await pool.run(request);
        expect(answer.hits.map((h) => h.blog.title)).toEqual(['Plants']);
      } finally {
        await pool.close();
      }
    },
    WORKER_TEST_MS,
  );

  it(
    'runs its worker below the serving threads on the CPU (a raised nice value of its own thread)',
    async () => {
      // Field 19 of /proc/<pid>/task/<tid>/stat: each thread's nice value.
      const niceOfThreads = () =>
        fs.readdirSync('/proc/self/task').map((tid) => {
          try {
            const stat = fs.readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
            return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
          } catch {
            return NaN; // the thread ended meanwhile
          }
        });
      const before = niceOfThreads().filter((nice) => nice === SEARCH_NICE).length;
      const pool = startSearchPool({ databasePath, fallback: () => Promise.reject(new Error('fallback used')) });
      try {
        await pool.run(request);
        expect(niceOfThreads().filter((nice) => nice === SEARCH_NICE).length).toBe(before + 1);
        expect(os.getPriority()).toBe(0);
      } finally {
        await pool.close();
      }
    },
    WORKER_TEST_MS,
  );

  it(
    'starts its worker at the first search, stops it when idle and starts it again at the next',
    async () => {
      const starts = path.join(dir, 'starts.txt');
      const counting = writeWorker(
        'counting.mjs',
        `import fs from 'node:fs';
         import { parentPort } from 'node:worker_threads';
         fs.appendFileSync(${JSON.stringify(starts)}, 'started\\n');
         parentPort.on('message', ({ id }) => parentPort.postMessage({ id, answer: ${JSON.stringify(emptyAnswer)} }));
         parentPort.postMessage({ ready: true });`,
      );
      const startCount = () => (fs.existsSync(starts) ? fs.readFileSync(starts, 'utf8').split('\n').filter(Boolean).length : 0);
      const pool = startSearchPool({
        databasePath,
        workerUrl: counting,
        idleMs: 100,
        fallback: () => Promise.reject(new Error('fallback used')),
      });
      try {
        expect(pool.hasWorker()).toBe(false);
        await expect(pool.run(request)).resolves.toEqual(emptyAnswer);
        expect(startCount()).toBe(1);
        await expect.poll(() => pool.hasWorker(), { timeout: 30_000 }).toBe(false);
        await expect(pool.run(request)).resolves.toEqual(emptyAnswer);
        expect(startCount()).toBe(2);
        expect(pool.hasWorker()).toBe(true);
      } finally {
        await pool.close();
      }
    },
    WORKER_TEST_MS,
  );

  it(
    'falls back to in-process searching when the worker cannot start',
    async () => {
      let fallbacks = 0;
      const pool = startSearchPool({
        databasePath,
        workerUrl: writeWorker('broken.mjs', 'throw new Error("no worker here");'),
        fallback: async () => {
          fallbacks++;
          return emptyAnswer;
        },
      });
      try {
        await expect(pool.run(request)).resolves.toEqual(emptyAnswer);
        expect(fallbacks).toBe(1);
      } finally {
        await pool.close();
      }
    },
    WORKER_TEST_MS,
  );

  it(
    'lets a job whose thread waited for a core (little CPU used) finish past the limit, up to the cap',
    async () => {
      // Blocks without using CPU, as a thread does on a machine busy with other work, then answers.
      const waiting = writeWorker(
        'waiting.mjs',
        `import { parentPort } from "node:worker_threads";
         parentPort.postMessage({ ready: true });
         parentPort.on("message", ({ id }) => {
           Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 600);
           parentPort.postMessage({ id, answer: ${JSON.stringify(emptyAnswer)} });
         });`,
      );
      const pool = startSearchPool({
        databasePath,
        workerUrl: waiting,
        timeoutMs: 150,
        // The cap is the hang guard here: the job's own CPU time decides.
        starvedCapMs: WORKER_TEST_MS,
        fallback: () => Promise.reject(new Error('fallback used')),
      });
      try {
        await expect(pool.run(request)).resolves.toEqual(emptyAnswer);
      } finally {
        await pool.close();
      }
    },
    WORKER_TEST_MS,
  );

  it(
    'answers "took too long" past the time limit and replaces the worker',
    async () => {
      const silent = writeWorker(
        'silent.mjs',
        'import { parentPort } from "node:worker_threads"; parentPort.postMessage({ ready: true }); parentPort.on("message", () => {});',
      );
      const pool: SearchWorkerPool = startSearchPool({
        databasePath,
        workerUrl: silent,
        timeoutMs: 50,
        fallback: () => Promise.resolve(emptyAnswer),
      });
      try {
        const error = await pool.run(request).catch((e: unknown) => e);
        expect(isSearchUnavailable(error) && error.reason).toBe('timeout');
        // The queue goes on with the next job on a fresh worker.
        const again = await pool.run(request).catch((e: unknown) => e);
        expect(isSearchUnavailable(again) && again.reason).toBe('timeout');
      } finally {
        await pool.close();
      }
    },
    WORKER_TEST_MS,
  );

  it(
    'refuses a search when the queue is full',
    async () => {
      const silent = writeWorker(
        'silent2.mjs',
        'import { parentPort } from "node:worker_threads"; parentPort.on("message", () => {});',
      );
      const pool = startSearchPool({
        databasePath,
        workerUrl: silent,
        maxQueue: 2,
        fallback: () => Promise.resolve(emptyAnswer),
      });
      // This worker never says it is ready, so both wait in the queue.
      const waiting = [pool.run(request).catch((e: unknown) => e), pool.run(request).catch((e: unknown) => e)];
      const refused = await pool.run(request).catch((e: unknown) => e);
      expect(isSearchUnavailable(refused) && refused.reason).toBe('busy');
      await pool.close();
      await Promise.all(waiting);
    },
    WORKER_TEST_MS,
  );
});
