import { Worker } from 'node:worker_threads';
import type { SearchAnswer, SearchRequest, SearchWorkerPool } from '../ports.ts';
import { threadCpuMs } from './thread-cpu.ts';
import { siblingModuleUrl } from '../module-file.ts';

export type { RenderedSearchPage, SearchPageJob, SearchPool, SearchWorkerPool } from '../ports.ts';

/** The search thread's nice value: readers of stored pages win the CPU over searches. */
export const SEARCH_NICE = 10;

/**
 * The search is refused for now: too many waiting (`busy`), the query ran over its time
 * (`timeout`), or, for a page, no render worker can render it (`no-worker`: the caller renders it
 * itself).
 */
export class SearchUnavailable extends Error {
  readonly reason: 'busy' | 'timeout' | 'no-worker';
  readonly searchUnavailable = true;
  constructor(reason: 'busy' | 'timeout' | 'no-worker') {
    super(
      reason === 'busy'
        ? 'Too many searches are waiting'
        : reason === 'timeout'
          ? 'The search took too long'
          : 'No render worker renders search pages',
    );
    this.reason = reason;
  }
}

/**
 * By shape, not instanceof: the pool is made by the front server's copy of this module and the
 * pages run in Astro's bundle, which has its own copy of the class.
 */
export function isSearchUnavailable(error: unknown): error is SearchUnavailable {
  return typeof error === 'object' && error !== null && (error as { searchUnavailable?: unknown }).searchUnavailable === true;
}

export interface SearchPoolOptions {
  databasePath: string;
  /** Answers searches while the worker cannot start (in-process on the caller's connection). */
  fallback: (request: SearchRequest) => Promise<SearchAnswer>;
  /** A job's limit in the worker thread's CPU time (wall time where Node cannot tell). */
  timeoutMs?: number;
  /** The wall time a job may take while its thread waits for a core (default 4 x timeoutMs). */
  starvedCapMs?: number;
  maxQueue?: number;
  /** The worker stops after this long without a search (default 60 s) and starts again at the next. */
  idleMs?: number;
  workerUrl?: URL;
}

/** What the pool sends its worker. */
export type SearchWorkerJob = { id: number; request: SearchRequest };

/** What the worker sends back: `{ ready: true }` once loaded, then one answer per job. */
export type SearchWorkerMessage = { ready: true } | { id: number; answer?: SearchAnswer; error?: string };

/** The worker's start-up data. */
export interface SearchWorkerData {
  databasePath: string;
}

interface Job {
  id: number;
  message: SearchWorkerJob;
  resolve: (answer: SearchAnswer) => void;
  reject: (error: unknown) => void;
}

/**
 * One search worker with a bounded queue: a job at a time, each with a time limit. A job over its
 * time is answered "took too long" and the worker is replaced (a running SQLite query cannot be
 * stopped from outside), so one pathological query cannot hold up the searches behind it.
 * The worker is started by the first search and stopped after a quiet minute: it holds its own
 * V8 heap, database connection and word list, which a site nobody searches should not pay for.
 * It renders no page (search-page-render.ts has a render worker do that), so it loads no copy of
 * Astro's server. The first search after a pause waits for the
 * start (a few tenths of a second).
 */
export function startSearchPool(options: SearchPoolOptions): SearchWorkerPool {
  const timeoutMs = options.timeoutMs ?? 5000;
  const starvedCapMs = options.starvedCapMs ?? timeoutMs * 4;
  const maxQueue = options.maxQueue ?? 32;
  const idleMs = options.idleMs ?? 60_000;
  const workerUrl = options.workerUrl ?? siblingModuleUrl(import.meta.url, './search-worker');
  const workerData: SearchWorkerData = { databasePath: options.databasePath };
  const queue: Job[] = [];
  let running: { job: Job; timer: NodeJS.Timeout } | null = null;
  let worker: Worker | null = null;
  // Jobs wait for the worker to have loaded, so its start-up does not count against their time.
  let ready = false;
  let unavailable = false;
  let closed = false;
  let nextId = 1;
  let idleTimer: NodeJS.Timeout | null = null;

  function stopWhenIdle(): void {
    if (idleTimer) clearTimeout(idleTimer);
    idleTimer = null;
    if (running || queue.length > 0 || !worker || closed) return;
    idleTimer = setTimeout(() => {
      idleTimer = null;
      if (running || queue.length > 0 || !worker) return;
      // Forgotten first, so its exit is not taken for a crash.
      const stopping = worker;
      worker = null;
      ready = false;
      void stopping.terminate();
    }, idleMs);
    idleTimer.unref();
  }

  /** Without a worker: a search runs in-process on the caller's connection. */
  function answerWithoutWorker(job: Job): void {
    options.fallback(job.message.request).then(job.resolve, job.reject);
  }

  function spawn(): void {
    // A small young generation: a search's garbage is small and short-lived (V8's default grows to 48 MiB).
    const current = new Worker(workerUrl, { workerData, resourceLimits: { maxYoungGenerationSizeMb: 8 } });
    worker = current;
    ready = false;
    current.on('message', (message: SearchWorkerMessage) => {
      if ('ready' in message) {
        ready = true;
        dispatch();
        return;
      }
      if (!running || running.job.id !== message.id) return;
      const { job, timer } = running;
      clearTimeout(timer);
      running = null;
      if (message.answer) job.resolve(message.answer);
      else job.reject(new Error(message.error ?? 'search failed'));
      dispatch();
    });
    current.on('error', (error) => {
      if (worker !== current) return;
      console.error('[search] the search worker failed; searching in-process from now on:', error);
      unavailable = true;
      ready = false;
      worker = null;
      const lost = running?.job;
      if (running) clearTimeout(running.timer);
      running = null;
      for (const job of [...(lost ? [lost] : []), ...queue.splice(0)]) answerWithoutWorker(job);
    });
    current.on('exit', () => {
      if (worker !== current || closed || unavailable) return;
      // Gone without an error (killed, out of memory): the job under way is lost, the next worker takes over.
      if (running) {
        clearTimeout(running.timer);
        running.job.reject(new SearchUnavailable('timeout'));
        running = null;
      }
      spawn();
    });
    current.unref();
  }

  function dispatch(): void {
    if (running || closed || (!ready && !unavailable)) return;
    const job = queue.shift();
    if (!job) return stopWhenIdle();
    if (idleTimer) clearTimeout(idleTimer);
    idleTimer = null;
    if (unavailable || !worker) {
      answerWithoutWorker(job);
      dispatch();
      return;
    }
    const current = worker;
    const startedAt = performance.now();
    const cpuAtStart = threadCpuMs(current);
    const expire = () => {
      running = null;
      job.reject(new SearchUnavailable('timeout'));
      const stale = worker;
      spawn();
      void stale?.terminate();
      dispatch();
    };
    // The limit counts the thread's CPU time: one that waited for a core gets more wall time, up to the cap.
    const check = async () => {
      const [before, now] = await Promise.all([cpuAtStart, threadCpuMs(current)]);
      if (running?.job !== job) return;
      const used = before === null || now === null ? timeoutMs : now - before;
      if (used >= timeoutMs || performance.now() - startedAt >= starvedCapMs) return expire();
      running.timer = setTimeout(() => void check(), Math.max(100, timeoutMs - used));
    };
    running = { job, timer: setTimeout(() => void check(), timeoutMs) };
    worker.postMessage(job.message);
  }

  function enqueue(request: SearchRequest): Promise<SearchAnswer> {
    if (queue.length >= maxQueue) return Promise.reject(new SearchUnavailable('busy'));
    return new Promise<SearchAnswer>((resolve, reject) => {
      const id = nextId++;
      queue.push({ id, message: { id, request }, resolve, reject });
      if (!worker && !closed) spawn();
      dispatch();
    });
  }

  return {
    run(request) {
      if (unavailable) return options.fallback(request);
      return enqueue(request);
    },
    hasWorker: () => worker !== null,
    async close() {
      closed = true;
      if (idleTimer) clearTimeout(idleTimer);
      if (running) {
        clearTimeout(running.timer);
        running.job.reject(new SearchUnavailable('busy'));
        running = null;
      }
      for (const job of queue.splice(0)) job.reject(new SearchUnavailable('busy'));
      await worker?.terminate();
    },
  };
}
