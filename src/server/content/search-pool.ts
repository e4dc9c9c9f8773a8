import { Worker } from 'node:worker_threads';
import type { SearchAnswer, SearchRequest } from './search-run.ts';
import { siblingModuleUrl } from '../module-file.ts';

/** The search is refused for now: too many waiting, or the query ran over its time. */
export class SearchUnavailable extends Error {
  readonly reason: 'busy' | 'timeout';
  readonly searchUnavailable = true;
  constructor(reason: 'busy' | 'timeout') {
    super(reason === 'busy' ? 'Too many searches are waiting' : 'The search took too long');
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

export interface SearchPool {
  run(request: SearchRequest): Promise<SearchAnswer>;
  /** Whether a worker is started (it starts at the first search and stops after `idleMs` without one). */
  hasWorker(): boolean;
  close(): Promise<void>;
}

export interface SearchPoolOptions {
  databasePath: string;
  /** Answers searches while the worker cannot start (in-process on the caller's connection). */
  fallback: (request: SearchRequest) => Promise<SearchAnswer>;
  timeoutMs?: number;
  maxQueue?: number;
  /** The worker stops after this long without a search (default 60 s) and starts again at the next. */
  idleMs?: number;
  workerUrl?: URL;
}

interface Job {
  id: number;
  request: SearchRequest;
  resolve: (answer: SearchAnswer) => void;
  reject: (error: unknown) => void;
}

type WorkerMessage = { ready: true } | { id: number; answer?: SearchAnswer; error?: string };

/**
 * One search worker with a bounded queue: a job at a time, each with a time limit. A job over its
 * time is answered "took too long" and the worker is replaced (a running SQLite query cannot be
 * stopped from outside), so one pathological query cannot hold up the searches behind it.
 * The worker is started by the first search and stopped after a quiet minute: it holds about
 * 25 MB per serving process (its own V8 heap and database connection), which a site nobody
 * searches should not pay for. The first search after a pause waits for the start (about 0.1 s).
 */
export function startSearchPool(options: SearchPoolOptions): SearchPool {
  const timeoutMs = options.timeoutMs ?? 5000;
  const maxQueue = options.maxQueue ?? 32;
  const idleMs = options.idleMs ?? 60_000;
  const workerUrl = options.workerUrl ?? siblingModuleUrl(import.meta.url, './search-worker');
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

  function spawn(): void {
    // A small young generation: a search's garbage is small and short-lived (V8's default grows to 48 MiB).
    const current = new Worker(workerUrl, {
      workerData: { databasePath: options.databasePath },
      resourceLimits: { maxYoungGenerationSizeMb: 8 },
    });
    worker = current;
    ready = false;
    current.on('message', (message: WorkerMessage) => {
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
      for (const job of lost ? [lost, ...queue.splice(0)] : queue.splice(0))
        options.fallback(job.request).then(job.resolve, job.reject);
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
      options.fallback(job.request).then(job.resolve, job.reject);
      dispatch();
      return;
    }
    const timer = setTimeout(() => {
      running = null;
      job.reject(new SearchUnavailable('timeout'));
      const stale = worker;
      spawn();
      void stale?.terminate();
      dispatch();
    }, timeoutMs);
    running = { job, timer };
    worker.postMessage({ id: job.id, request: job.request });
  }

  return {
    run(request) {
      if (unavailable) return options.fallback(request);
      if (queue.length >= maxQueue) return Promise.reject(new SearchUnavailable('busy'));
      return new Promise<SearchAnswer>((resolve, reject) => {
        queue.push({ id: nextId++, request, resolve, reject });
        if (!worker && !closed) spawn();
        dispatch();
      });
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
