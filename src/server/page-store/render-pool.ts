import os from 'node:os';
import { Worker } from 'node:worker_threads';
import {
  runsHurried,
  type JobWork,
  type RenderPriority,
  type ThreadNice,
  type WorkerJob,
  type WorkerMessage,
} from './render-protocol.ts';
import type { ThreadIdler } from './thread-idle.ts';

export type { RenderPriority, WorkerJob, WorkerMessage } from './render-protocol.ts';

export interface RenderPoolOptions {
  size: number;
  workerUrl: URL;
  workerData?: unknown;
  /** Heap limit of each worker (V8's old generation), in MiB. */
  memoryMb: number;
  /** V8's young generation of each worker, in MiB (left out: V8's default, up to 48). */
  youngMb?: number;
  /** Jobs handed to one worker at once, so it never idles waiting for the next one. */
  perWorker?: number;
  /**
   * Jobs a worker may hold at once when the next is a patch (`JobWork.patch`): a fraction of a
   * render each, so more are handed out for the worker not to idle between them.
   */
  patchesPerWorker?: number;
  /** A job running longer than this is taken as a hung worker: the worker is replaced. */
  timeoutMs?: number;
  /** Longest stretch `deferBackground` may hold background jobs back, however often it is called. */
  maxBackgroundDeferMs?: number;
  log?: (line: string) => void;
  /**
   * Moves a worker's thread between the machine's idle time only and its normal share
   * (`backgroundInIdleTime`); null or left out: workers always run at their normal share.
   */
  idleThreads?: ThreadIdler | null;
  /** Sets a thread's nice value by its kernel id; false when refused (left out: `os.setPriority`). */
  setThreadNice?: (tid: number, nice: number) => boolean;
  /**
   * Stops every worker once the pool has held no job for this long, and starts them again with
   * the next job or `wake()` (left out or 0: workers run as long as the pool).
   */
  restAfterMs?: number;
  /**
   * A job someone waits for that runs at the worker's own nice value (a search page, `runsHurried`)
   * and has been held this long runs at nice 0 (left out: 2,000 ms).
   */
  unhurriedWaitMs?: number;
}

export interface RenderPoolStatus {
  /** Worker threads running now (none while the pool rests). */
  workers: number;
  /** Worker threads the pool runs while it works. */
  size: number;
  /** Whether the workers are stopped until the next job (`restAfterMs`). */
  resting: boolean;
  /** Jobs waiting for a worker. */
  queued: number;
  /** Jobs a worker holds now. */
  running: number;
  rendered: number;
  failed: number;
  /** Workers replaced after a crash, a heap limit or a hung render. */
  replaced: number;
}

/** A render that could not be done: its worker died twice, or the pool is closed or cannot start workers. */
export class RenderFailed extends Error {
  readonly key: string;
  constructor(key: string, reason: string) {
    super(`Render of ${key} failed: ${reason}`);
    this.key = key;
  }
}

/** A job given its own time limit ran over it: refused, not tried again (its worker is replaced). */
export class RenderTimedOut extends RenderFailed {
  readonly timedOut = true;
}

interface Job<A> {
  id: number;
  key: string;
  priority: RenderPriority;
  work: JobWork;
  /** Its own time limit (else the pool's `timeoutMs`, after which it is tried again). */
  limitMs: number | null;
  attempts: number;
  resolve: (answer: A) => void;
  reject: (error: Error) => void;
  timer?: NodeJS.Timeout;
  /** When a worker was handed it (performance.now()). */
  handedAt?: number;
}

interface Slot<A> {
  worker: Worker;
  ready: boolean;
  jobs: Map<number, Job<A>>;
  /** The worker's thread id in the kernel's terms, once it said (null: it did not). */
  tid: number | null;
  /** Whether its thread runs in the machine's idle time only. */
  idle: boolean;
  /** Its thread's nice values, when the worker may lower its own (null: it may not, or the pool may not). */
  nice: ThreadNice | null;
  /** The nice value the pool last gave its thread (null: none, the worker keeps its own). */
  niceGiven: number | null;
}

function setThreadNice(tid: number, nice: number): boolean {
  try {
    os.setPriority(tid, nice);
    return true;
  } catch {
    return false;
  }
}

/** Background jobs looked through for a patch when the first one, a render, must wait for a slot. */
const PATCH_LOOKAHEAD = 32;

/** How long workers asked to rest soon stay up once the pool empties after the asked time. */
const REST_SOON_GRACE_MS = 500;

/** Starts in a row that may fail before the pool refuses jobs (until a later start succeeds). */
const START_FAILURES_BEFORE_REFUSING = 3;

/**
 * A pool of render worker threads. The serving thread hands it a page key and gets the
 * worker's answer back; it never renders itself. Jobs wait in two queues: `now` (a reader or a save
 * is waiting) before `background` (the refresh queue, the pre-render). A worker that dies (a crash,
 * its heap limit, a render over its time) is replaced; the jobs it held are tried once more on
 * another worker, and a job that fails twice is refused with `RenderFailed` (answered as a 500).
 * Given `restAfterMs`, the workers stop once the pool has held no job that long (each holds its
 * own copy of Astro and the renderers), and the next job starts them again.
 */
export class RenderPool<A> {
  private readonly options: Required<Omit<RenderPoolOptions, 'workerData' | 'youngMb' | 'idleThreads' | 'setThreadNice'>> & {
    workerData?: unknown;
    youngMb?: number;
  };
  /** Null without the native call, or once a thread could not leave idle time (no privilege for it). */
  private idleThreads: ThreadIdler | null;
  /** Whether background jobs should run in the machine's idle time only (see backgroundInIdleTime). */
  private idleWanted = false;
  private readonly setThreadNice: (tid: number, nice: number) => boolean;
  private readonly slots = new Set<Slot<A>>();
  private readonly now: Job<A>[] = [];
  private readonly background: Job<A>[] = [];
  private nextId = 1;
  private startFailures = 0;
  private closed = false;
  private counts = { rendered: 0, failed: 0, replaced: 0 };
  private readonly settledListeners: (() => void)[] = [];
  /** Background jobs wait until then (performance.now()); see deferBackground. */
  private backgroundHeldUntil = 0;
  /** When the current stretch of holding background jobs began (null: not held). */
  private backgroundHeldSince: number | null = null;
  private backgroundRelease: NodeJS.Timeout | undefined;
  /** Whether the workers were stopped for want of jobs (`restAfterMs`). */
  private resting = false;
  private restTimer: NodeJS.Timeout | undefined;
  /**
   * When `restSoon` asked the workers to stop. Kept through their rest and their next start by
   * background jobs (the tail of that work: its pages' encodings for the first readers, a
   * sibling's share arriving late), cleared by a `now` job or `wake()`.
   */
  private restSoonAt: number | null = null;
  /** The last `wake()` (performance.now()): `restSoon` does not cut the spell it asked for. */
  private wokenAt = -Infinity;
  /** Looks again at the workers' nice values when a held search page has waited its while. */
  private unhurriedTimer: NodeJS.Timeout | undefined;

  constructor(options: RenderPoolOptions) {
    this.options = {
      perWorker: 2,
      patchesPerWorker: options.perWorker ?? 2,
      timeoutMs: 60_000,
      maxBackgroundDeferMs: 2_000,
      restAfterMs: 0,
      unhurriedWaitMs: 2_000,
      log: console.error,
      ...options,
    };
    this.idleThreads = options.idleThreads ?? null;
    this.setThreadNice = options.setThreadNice ?? setThreadNice;
    this.start();
  }

  /**
   * Renders one key on a worker (or, given `work.body`, only compresses that stored body of it;
   * given `work.patch`, patches that stored page's header and footer when it can); rejects with
   * RenderFailed, or with the worker's own error. Given `limitMs`, a job that has held its worker
   * that long is refused with RenderTimedOut and not tried again (a search page: a query that runs
   * away would only run away again), and the worker is replaced.
   */
  render(key: string, priority: RenderPriority = 'now', work: JobWork = {}, limitMs: number | null = null): Promise<A> {
    if (this.closed) return Promise.reject(new RenderFailed(key, 'the render pool is closed'));
    if (this.refusing()) return Promise.reject(new RenderFailed(key, 'no render worker could start'));
    // A reader waiting for a render (a miss, a search) may ask again soon. An encoding of a stored
    // page, even one a reader waits for, is the tail of the work that stored it (the first reader
    // of a refreshed page), as is the background.
    if (priority === 'now' && work.body === undefined) this.restSoonAt = null;
    if (this.resting) this.start();
    return new Promise<A>((resolve, reject) => {
      const job: Job<A> = { id: this.nextId++, key, priority, work, limitMs, attempts: 0, resolve, reject };
      (priority === 'now' ? this.now : this.background).push(job);
      this.dispatch();
    });
  }

  /**
   * Starts the workers if they rest, and keeps them up for `restAfterMs` more: called when a job
   * is likely soon (an admin at work), so it finds them started.
   */
  wake(): void {
    if (this.closed) return;
    this.wokenAt = performance.now();
    this.restSoonAt = null;
    if (this.resting) this.start();
    else this.restLater();
  }

  /**
   * The workers stop `ms` from now, or once the jobs they hold and those queued are done, unless
   * a `now` job or `wake()` comes first (then `restAfterMs` stands again): for work that no one
   * waits for and nothing is expected to follow, such as the pre-render or the refresh of the
   * top-viewed lists, whose workers would otherwise hold their memory for the whole rest spell
   * (about 55 MB a process) while readers read what they stored. Background jobs after the ask
   * do not cancel it, even once the workers rested and those jobs start them again (that work's
   * tail: the encodings its first readers take, waited for or not, a sibling's share that came
   * late): they stop again once those are done. A `wake()` less than `restAfterMs` ago keeps
   * its spell: an admin at work finds the workers up. Nothing when they never rest.
   */
  restSoon(ms: number): void {
    if (this.closed || this.options.restAfterMs <= 0) return;
    this.restSoonAt = Math.max(performance.now() + ms, this.wokenAt + this.options.restAfterMs);
    if (!this.resting) this.restLater();
  }

  /**
   * Hands no background job to a worker for the next `ms` (a change is under way: its hot pages
   * must find the worker free, and a render under way cannot be interrupted). Jobs already handed
   * out run on; `now` jobs are not held. Called again, the hold lasts until `ms` after the last
   * call, but never longer than `maxBackgroundDeferMs` in a row, so the background still moves
   * under a steady stream of changes.
   */
  deferBackground(ms: number): void {
    if (this.closed) return;
    const now = performance.now();
    const since = this.backgroundHeldSince ?? now;
    const until = Math.min(now + ms, since + this.options.maxBackgroundDeferMs);
    // Nothing to hold, or the stretch is at its longest: the release already set stands.
    if (until <= now || until <= this.backgroundHeldUntil) return;
    this.backgroundHeldSince = since;
    this.backgroundHeldUntil = until;
    clearTimeout(this.backgroundRelease);
    this.backgroundRelease = setTimeout(() => {
      this.backgroundHeldSince = null;
      this.dispatch();
    }, until - now);
    this.backgroundRelease.unref();
  }

  /**
   * Runs the workers in the machine's idle time only (true), or at their normal share (false),
   * while they hold no urgent job and none waits: a reader's miss or a save's hot page always
   * runs at the normal share, the worker moved back before it is handed the job. Without the
   * native call (or the privilege to move a thread back) this does nothing.
   */
  backgroundInIdleTime(on: boolean): void {
    this.idleWanted = on;
    this.pace();
  }

  /** Calls `listener` after each job a worker answered or refused: the counts of `status()` moved. */
  onSettled(listener: () => void): void {
    this.settledListeners.push(listener);
  }

  status(): RenderPoolStatus {
    let running = 0;
    for (const slot of this.slots) running += slot.jobs.size;
    return {
      workers: this.slots.size,
      size: this.options.size,
      resting: this.resting,
      queued: this.now.length + this.background.length,
      running,
      ...this.counts,
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.backgroundRelease);
    clearTimeout(this.restTimer);
    clearTimeout(this.unhurriedTimer);
    const refused = new RenderFailed('*', 'the render pool is closed');
    for (const job of [...this.now.splice(0), ...this.background.splice(0)]) job.reject(refused);
    const stopping: Promise<number>[] = [];
    for (const slot of this.slots) {
      for (const job of slot.jobs.values()) this.settle(job).reject(refused);
      slot.jobs.clear();
      stopping.push(slot.worker.terminate());
    }
    this.slots.clear();
    await Promise.all(stopping);
  }

  private refusing(): boolean {
    return this.startFailures >= START_FAILURES_BEFORE_REFUSING && ![...this.slots].some((slot) => slot.ready);
  }

  private start(): void {
    this.resting = false;
    for (let i = this.slots.size; i < this.options.size; i++) this.spawn();
    this.restLater();
  }

  /** The workers stop `restAfterMs` from now unless a job comes first (set again each time the pool empties). */
  private restLater(): void {
    clearTimeout(this.restTimer);
    if (this.options.restAfterMs <= 0 || this.closed) return;
    // Past the asked time, a moment's grace once the pool empties: the next background job of
    // the same work may be on its way (a batch of the refresh queue), and a start costs more.
    const delay =
      this.restSoonAt === null
        ? this.options.restAfterMs
        : Math.max(Math.min(REST_SOON_GRACE_MS, this.options.restAfterMs), this.restSoonAt - performance.now());
    this.restTimer = setTimeout(() => this.rest(), delay);
    this.restTimer.unref();
  }

  private rest(): void {
    if (this.closed || !this.isEmpty()) return;
    this.resting = true;
    // Out of the set first: their exit is then not taken for a crash to replace.
    const stopping = [...this.slots];
    this.slots.clear();
    for (const slot of stopping) void slot.worker.terminate();
  }

  private spawn(): void {
    if (this.closed) return;
    const worker = new Worker(this.options.workerUrl, {
      workerData: this.options.workerData,
      resourceLimits: {
        maxOldGenerationSizeMb: this.options.memoryMb,
        ...(this.options.youngMb ? { maxYoungGenerationSizeMb: this.options.youngMb } : {}),
      },
    });
    const slot: Slot<A> = { worker, ready: false, jobs: new Map(), tid: null, idle: false, nice: null, niceGiven: null };
    this.slots.add(slot);
    worker.on('message', (message: WorkerMessage<A>) => this.onMessage(slot, message));
    // 'error' (an uncaught throw, ERR_WORKER_OUT_OF_MEMORY) is always followed by 'exit'.
    worker.on('error', (error) => this.options.log(`[render-pool] a render worker failed: ${error.message}`));
    worker.on('exit', (code) => this.onExit(slot, code));
  }

  private onMessage(slot: Slot<A>, message: WorkerMessage<A>): void {
    if ('ready' in message) {
      if (!this.canIdle(slot, message.tid)) return;
      slot.ready = true;
      if (message.tid !== undefined) {
        slot.tid = message.tid;
        slot.nice = message.nice ?? null;
      }
      this.startFailures = 0;
      this.dispatch();
      return;
    }
    const job = slot.jobs.get(message.id);
    if (!job) return;
    slot.jobs.delete(message.id);
    this.settle(job);
    if ('answer' in message) {
      this.counts.rendered++;
      job.resolve(message.answer);
    } else {
      this.counts.failed++;
      job.reject(new Error(message.error));
    }
    for (const listener of this.settledListeners) listener();
    this.dispatch();
  }

  private onExit(slot: Slot<A>, code: number): void {
    if (!this.slots.delete(slot) || this.closed) return;
    this.counts.replaced++;
    if (!slot.ready) this.startFailures++;
    this.options.log(`[render-pool] a render worker exited (code ${code}); starting another`);
    // Tried once more at the front of the line, or refused after its second try.
    for (const job of [...slot.jobs.values()].reverse()) {
      this.settle(job);
      if (job.attempts < 2) this.now.unshift(job);
      else {
        this.counts.failed++;
        job.reject(new RenderFailed(job.key, 'its render worker died twice'));
      }
    }
    if (this.refusing()) {
      this.options.log('[render-pool] render workers cannot start; renders are refused until one does');
      for (const job of [...this.now.splice(0), ...this.background.splice(0)])
        job.reject(new RenderFailed(job.key, 'no render worker could start'));
      // Try again later, without spinning.
      setTimeout(() => this.spawn(), 5_000).unref();
      return;
    }
    this.spawn();
  }

  private dispatch(): void {
    // Urgent jobs waiting: every worker back to its normal share before one is handed them.
    this.pace();
    this.handOut();
    this.pace();
    this.hurry();
    if (this.options.restAfterMs > 0 && this.isEmpty()) this.restLater();
  }

  private isEmpty(): boolean {
    if (this.now.length > 0 || this.background.length > 0) return false;
    for (const slot of this.slots) if (slot.jobs.size > 0) return false;
    return true;
  }

  /**
   * A worker holding a job someone waits for runs at its hurry nice value from the moment it is
   * handed that job, not only once the job starts: a worker renders one job at a time, and the
   * background render ahead of it, at nice 10, took seconds on a machine busy with other work.
   * The worker puts its own value back after each urgent job; this puts it back when the pool
   * holds none for it, so a background job never keeps the hurry value. A search page is not
   * hurried (`runsHurried`): readers keep their share beside searchers. Held `unhurriedWaitMs`,
   * it runs at nice 0: on a machine busy with other work at nice 0, a thread at 10 got about 1/75
   * of a core, and a search page ran into its time limit.
   */
  private hurry(): void {
    const now = performance.now();
    let nextLook = Infinity;
    for (const slot of this.slots) {
      if (slot.tid === null || !slot.nice) continue;
      let wanted = slot.nice.rest;
      for (const job of slot.jobs.values()) {
        if (runsHurried(job.priority, job.work)) {
          wanted = slot.nice.hurry;
          break;
        }
        if (job.priority !== 'now' || job.handedAt === undefined) continue;
        const waitedUntil = job.handedAt + this.options.unhurriedWaitMs;
        if (waitedUntil <= now) wanted = 0;
        else nextLook = Math.min(nextLook, waitedUntil);
      }
      if (wanted === slot.niceGiven) continue;
      if (this.setThreadNice(slot.tid, wanted)) slot.niceGiven = wanted;
      // Refused (the thread ended, or this thread may not lower another's): the worker still
      // hurries each urgent job itself once it starts it.
      else slot.nice = null;
    }
    if (nextLook < Infinity && !this.unhurriedTimer) {
      this.unhurriedTimer = setTimeout(() => {
        this.unhurriedTimer = undefined;
        this.hurry();
      }, nextLook - now).unref();
    }
  }

  /**
   * A worker's thread tried in idle time and back, before it gets any job: where leaving idle
   * time is refused (no CAP_SYS_NICE, an RLIMIT_NICE below the worker's nice value), the thread
   * would stay there, so it is replaced and no worker is moved again. False when replaced.
   */
  private canIdle(slot: Slot<A>, tid: number | undefined): boolean {
    if (!this.idleThreads || tid === undefined) return true;
    if (!this.idleThreads(tid, true)) {
      this.idleThreads = null;
      this.options.log('[render-pool] render workers cannot run in idle time here; the refresh runs at their nice value');
      return true;
    }
    // Back out too: the thread's id is kept once the worker is ready (onMessage).
    if (this.idleThreads(tid, false)) return true;
    slot.idle = true;
    this.stuckInIdleTime(
      "a render worker could not leave idle time (it needs CAP_SYS_NICE or LimitNICE=); replacing it, and the refresh runs at the workers' nice value",
    );
    return false;
  }

  /** Each worker's thread in idle time when that is wanted and it holds no urgent job, else at its normal share. */
  private pace(): void {
    const move = this.idleThreads;
    if (!move) return;
    for (const slot of this.slots) {
      if (slot.tid === null) continue;
      const idle = this.idleWanted && this.now.length === 0 && !this.holdsUrgent(slot);
      if (idle === slot.idle) continue;
      if (move(slot.tid, idle)) slot.idle = idle;
      else if (!idle) return this.stuckInIdleTime('a render worker could not leave idle time; replacing the workers in it');
    }
  }

  /** A thread was refused its way back: no worker is moved again, and those left in idle time are replaced. */
  private stuckInIdleTime(why: string): void {
    this.idleThreads = null;
    this.options.log(`[render-pool] ${why}`);
    for (const slot of this.slots) if (slot.idle) void slot.worker.terminate();
  }

  private holdsUrgent(slot: Slot<A>): boolean {
    for (const job of slot.jobs.values()) if (job.priority === 'now') return true;
    return false;
  }

  private handOut(): void {
    for (;;) {
      const priority = this.now.length > 0;
      if (!priority && (this.background.length === 0 || this.backgroundHeldSince !== null)) return;
      const queue = priority ? this.now : this.background;
      // A waiting reader may use one slot more than the background, so it never queues behind it all.
      let best = this.freeSlot(priority ? this.options.perWorker + 1 : this.limitFor(queue[0]!));
      let at = 0;
      if (!best && !priority) {
        // A render waiting for a slot lets a patch behind it go first: a patch holds a worker a
        // fraction of a render's time.
        at = this.patchWithin(PATCH_LOOKAHEAD);
        if (at > 0) best = this.freeSlot(this.options.patchesPerWorker);
      }
      if (!best) return;
      const job = queue.splice(at, 1)[0]!;
      job.attempts++;
      job.handedAt = performance.now();
      best.jobs.set(job.id, job);
      const slot = best;
      const limitMs = job.limitMs ?? this.options.timeoutMs;
      job.timer = setTimeout(() => {
        this.options.log(`[render-pool] the render of ${job.key} ran over ${limitMs} ms; replacing its worker`);
        if (job.limitMs !== null && slot.jobs.delete(job.id)) {
          this.counts.failed++;
          job.reject(new RenderTimedOut(job.key, `it ran over its ${limitMs} ms`));
        }
        void slot.worker.terminate();
      }, limitMs);
      job.timer.unref();
      slot.worker.postMessage({
        id: job.id,
        key: job.key,
        priority: job.priority,
        ...job.work,
      } satisfies WorkerJob);
    }
  }

  private limitFor(job: Job<A>): number {
    return job.work.patch ? this.options.patchesPerWorker : this.options.perWorker;
  }

  /** The ready worker holding fewest jobs, when it holds fewer than `limit`. */
  private freeSlot(limit: number): Slot<A> | undefined {
    let best: Slot<A> | undefined;
    for (const slot of this.slots) {
      if (slot.ready && slot.jobs.size < limit && (!best || slot.jobs.size < best.jobs.size)) best = slot;
    }
    return best;
  }

  /** Where the first patch job is among the first `within` background jobs; -1 when none is. */
  private patchWithin(within: number): number {
    const end = Math.min(within, this.background.length);
    for (let at = 0; at < end; at++) if (this.background[at]!.work.patch) return at;
    return -1;
  }

  private settle(job: Job<A>): Job<A> {
    if (job.timer) clearTimeout(job.timer);
    job.timer = undefined;
    return job;
  }
}
