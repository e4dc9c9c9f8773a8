import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RenderFailed, RenderPool, RenderTimedOut, type RenderPoolOptions } from './render-pool.ts';
import { untilTrue } from '../../../tests/support/wait.ts';
import type { PagePatch } from './render-protocol.ts';
import { loadThreadIdler, type ThreadIdler } from './thread-idle.ts';
import { buildNative, nodeHeaderDirs } from '../../../scripts/build-native.ts';
import { hasSysNice, SCHED_IDLE, schedulingPolicyOf } from '../../../tests/support/scheduling.ts';

// Workers start in a fraction of a second, but a busy machine can take seconds.
const WORKER_TEST_MS = 60_000;

/**
 * A stand-in worker speaking the pool's protocol; what it does is spelled in the key:
 * `ok:x`, `wait:<file>` (answers once the file exists), `crash`, `crash-once:<file>`, `oom`,
 * `hang`, `throw`. Answers carry the order in which this worker finished jobs.
 */
const FAKE_WORKER = `
import fs from 'node:fs';
import os from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
const tid = Number(fs.readlinkSync('/proc/thread-self').split('/').pop());
// Given nice values (workerData.nice), the worker runs at its rest value and tells the pool both.
if (workerData?.nice) os.setPriority(workerData.nice.rest);
let finished = 0;
const hoard = [];
async function run(key) {
  const [kind, arg] = key.split(/:(.*)/s);
  if (kind === 'wait') while (!fs.existsSync(arg)) await new Promise((r) => setTimeout(r, 10));
  if (kind === 'crash') process.exit(3);
  if (kind === 'crash-once' && !fs.existsSync(arg)) { fs.writeFileSync(arg, ''); process.exit(3); }
  if (kind === 'oom') for (;;) hoard.push(new Array(1e6).fill(hoard.length));
  if (kind === 'hang') await new Promise(() => {});
  if (kind === 'throw') throw new Error('render blew up');
  return { key, order: ++finished, tid };
}
parentPort.on('message', ({ id, key }) =>
  run(key).then((answer) => parentPort.postMessage({ id, answer }), (e) => parentPort.postMessage({ id, error: String(e) })));
parentPort.postMessage({ ready: true, tid, nice: workerData?.nice });
`;

interface Answer {
  key: string;
  order: number;
  tid: number;
}

let dir: string;
let workerUrl: URL;
const pools: RenderPool<Answer>[] = [];

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'render-pool-'));
  fs.writeFileSync(path.join(dir, 'fake-worker.mjs'), FAKE_WORKER);
  workerUrl = new URL(`file://${path.join(dir, 'fake-worker.mjs')}`);
});

afterEach(async () => {
  await Promise.all(pools.splice(0).map((pool) => pool.close()));
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function startPool(options: Partial<RenderPoolOptions> = {}): RenderPool<Answer> {
  const pool = new RenderPool<Answer>({ size: 1, workerUrl, memoryMb: 64, log: () => {}, ...options });
  pools.push(pool);
  return pool;
}

const until = (done: () => boolean, what: string) => untilTrue(done, what, WORKER_TEST_MS / 2);

/** This process's threads in idle time only (SCHED_IDLE), by their kernel ids. */
function idleThreads(): number[] {
  const found: number[] = [];
  for (const tid of fs.readdirSync('/proc/self/task')) {
    try {
      if (schedulingPolicyOf(`/proc/self/task/${tid}/stat`) === SCHED_IDLE) found.push(Number(tid));
    } catch {
      // The thread ended meanwhile.
    }
  }
  return found;
}

/** The real thread-idle module, built for this test; null where it cannot be, or leaving idle time is not allowed. */
function realIdler(): ThreadIdler | null {
  if (process.platform !== 'linux' || nodeHeaderDirs(process.cwd()).length === 0 || !hasSysNice()) return null;
  const out = path.join(dir, 'dist');
  return buildNative(process.cwd(), path.join(out, 'native'), 'thread-idle').built ? loadThreadIdler(out) : null;
}

const gate = (name: string) => path.join(dir, `${name}-${Math.random().toString(36).slice(2)}`);

describe('RenderPool', () => {
  it(
    'hands a worker more patch jobs at once than renders',
    async () => {
      const pool = startPool({ size: 1, perWorker: 1, patchesPerWorker: 3 });
      const open = gate('open');
      const patch: PagePatch = {
        copy: new Uint8Array(1),
        encoding: 'identity',
        contentType: 'text/html',
        policy: null,
        tags: [],
        chrome: 'nav@1',
        block: null,
        labels: [],
      };
      const renders = [pool.render(`wait:${open}`, 'background'), pool.render(`wait:${open}`, 'background')];
      await until(() => pool.status().running === 1, 'one render to be handed out');
      expect(pool.status()).toMatchObject({ running: 1, queued: 1 });
      const patches = [1, 2, 3].map(() => pool.render(`wait:${open}`, 'background', { patch }));
      // The render waiting for a slot (one a worker) lets the patches behind it fill the worker to three.
      await until(() => pool.status().running === 3, 'the patches to go past the waiting render');
      expect(pool.status()).toMatchObject({ running: 3, queued: 2 });
      fs.writeFileSync(open, '');
      await Promise.all([...renders, ...patches]);
      const more = [1, 2, 3].map((n) => pool.render(`wait:${open}-${n}`, 'background', { patch }));
      await until(() => pool.status().running === 3, 'three patches to be handed out at once');
      for (const n of [1, 2, 3]) fs.writeFileSync(`${open}-${n}`, '');
      await Promise.all(more);
    },
    WORKER_TEST_MS,
  );

  it(
    'queues jobs while its workers are busy, and a waiting reader goes before the background',
    async () => {
      const pool = startPool({ size: 1, perWorker: 1 });
      const open = gate('open');
      // A waiting reader may hold one job more than the background: two held jobs fill the worker.
      const held = [pool.render(`wait:${open}`), pool.render(`wait:${open}`)];
      await until(() => pool.status().running === 2, 'the held jobs to run');
      const background = pool.render('ok:background', 'background');
      const reader = pool.render('ok:reader', 'now');
      expect(pool.status()).toMatchObject({ workers: 1, running: 2, queued: 2 });
      fs.writeFileSync(open, '');
      const [, , backgroundOrder, readerOrder] = (await Promise.all([...held, background, reader])).map((a) => a.order);
      // The reader was sent when the first held job ended; the second may end before or after it.
      expect(readerOrder).toBeLessThan(backgroundOrder!);
      expect(backgroundOrder).toBe(4);
      expect(pool.status()).toMatchObject({ queued: 0, running: 0, rendered: 4, failed: 0, replaced: 0 });
    },
    WORKER_TEST_MS,
  );

  it(
    'tells its listeners each job a worker answered or refused, once the counts moved',
    async () => {
      const pool = startPool();
      const seen: number[] = [];
      pool.onSettled(() => seen.push(pool.status().rendered + pool.status().failed));
      await pool.render('ok:first');
      await expect(pool.render('throw')).rejects.toThrow('render blew up');
      expect(seen).toEqual([1, 2]);
    },
    WORKER_TEST_MS,
  );

  it(
    'spreads jobs over its workers',
    async () => {
      const pool = startPool({ size: 2, perWorker: 1 });
      const open = gate('open');
      const held = [pool.render(`wait:${open}`, 'background'), pool.render(`wait:${open}x`, 'background')];
      await until(() => pool.status().running === 2, 'both workers to hold a job');
      fs.writeFileSync(open, '');
      fs.writeFileSync(`${open}x`, '');
      // Each worker finished one job: both counted 1.
      expect((await Promise.all(held)).map((a) => a.order)).toEqual([1, 1]);
    },
    WORKER_TEST_MS,
  );

  it(
    'replaces a worker that crashed and tries its job once more',
    async () => {
      const pool = startPool();
      const answer = await pool.render(`crash-once:${gate('crashed')}`);
      expect(answer.key).toMatch(/^crash-once:/);
      expect(pool.status()).toMatchObject({ workers: 1, replaced: 1, rendered: 1, failed: 0 });
    },
    WORKER_TEST_MS,
  );

  it(
    'refuses a job whose worker died twice, and renders the next one on a new worker',
    async () => {
      const pool = startPool();
      await expect(pool.render('crash')).rejects.toBeInstanceOf(RenderFailed);
      expect(pool.status()).toMatchObject({ replaced: 2, failed: 1 });
      expect((await pool.render('ok:after')).key).toBe('ok:after');
      expect(pool.status().workers).toBe(1);
    },
    WORKER_TEST_MS,
  );

  it(
    'replaces a worker that ran out of its heap',
    async () => {
      const pool = startPool({ memoryMb: 32 });
      await expect(pool.render('oom')).rejects.toBeInstanceOf(RenderFailed);
      expect(pool.status().replaced).toBe(2);
      expect((await pool.render('ok:after')).key).toBe('ok:after');
    },
    WORKER_TEST_MS,
  );

  it(
    'replaces a worker whose render ran over its time',
    async () => {
      const pool = startPool({ timeoutMs: 300 });
      await expect(pool.render('hang')).rejects.toBeInstanceOf(RenderFailed);
      expect((await pool.render('ok:after')).key).toBe('ok:after');
    },
    WORKER_TEST_MS,
  );

  it(
    'refuses a job over its own time limit without trying it again, and tries again the jobs its worker held',
    async () => {
      const pool = startPool({ size: 1 });
      const open = gate('open');
      const runaway = pool.render('hang', 'now', {}, 300).catch((error: unknown) => error);
      const beside = pool.render(`wait:${open}`);
      await until(() => pool.status().running === 2, 'both jobs to be handed to the one worker');
      const error = await runaway;
      expect(error).toBeInstanceOf(RenderTimedOut);
      // What the search pages read it by (content/search-page-render.ts).
      expect((error as RenderTimedOut).timedOut).toBe(true);
      expect((error as Error).message).toMatch(/hang failed: it ran over its 300 ms/);
      fs.writeFileSync(open, '');
      expect((await beside).key).toBe(`wait:${open}`);
      // One worker replaced, the runaway job refused once and never handed out again.
      expect(pool.status()).toMatchObject({ replaced: 1, failed: 1, running: 0, queued: 0 });
    },
    WORKER_TEST_MS,
  );

  it(
    'passes a render error back without replacing the worker or trying again',
    async () => {
      const pool = startPool();
      await expect(pool.render('throw')).rejects.toThrow(/render blew up/);
      expect(pool.status()).toMatchObject({ replaced: 0, failed: 1 });
    },
    WORKER_TEST_MS,
  );

  it(
    'refuses renders, instead of spinning, when no worker can start',
    async () => {
      const broken = path.join(dir, 'broken.mjs');
      fs.writeFileSync(broken, 'throw new Error("cannot load the site");');
      const pool = startPool({ workerUrl: new URL(`file://${broken}`) });
      const waiting = pool.render('ok:never');
      await expect(waiting).rejects.toBeInstanceOf(RenderFailed);
      await expect(pool.render('ok:later')).rejects.toThrow(/no render worker could start/);
    },
    WORKER_TEST_MS,
  );

  it(
    'holds background jobs back while a change is under way, never the renders someone waits for',
    async () => {
      const pool = startPool({ maxBackgroundDeferMs: WORKER_TEST_MS });
      await pool.render('ok:started');
      pool.deferBackground(WORKER_TEST_MS);
      const background = pool.render('ok:refresh', 'background');
      const outcome = background.then(
        () => 'rendered',
        (error: unknown) => (error instanceof RenderFailed ? 'refused at close' : 'failed'),
      );
      expect((await pool.render('ok:hot')).order).toBe(2);
      // The background job is still waiting: a change's next hot page would find the worker free.
      expect(pool.status()).toMatchObject({ queued: 1, running: 0 });
      await pool.close();
      expect(await outcome).toBe('refused at close');
    },
    WORKER_TEST_MS,
  );

  it(
    'lets the background go when the hold ends, and never holds it longer than maxBackgroundDeferMs in a row',
    async () => {
      const short = startPool();
      short.deferBackground(20);
      expect((await short.render('ok:after-the-hold', 'background')).key).toBe('ok:after-the-hold');

      // Asked again and again for a long hold, the pool still lets the background through.
      const capped = startPool({ maxBackgroundDeferMs: 50 });
      capped.deferBackground(WORKER_TEST_MS);
      const background = capped.render('ok:refresh', 'background');
      capped.deferBackground(WORKER_TEST_MS);
      expect((await background).key).toBe('ok:refresh');
    },
    WORKER_TEST_MS,
  );

  it(
    'hurries a worker from the moment it is handed an urgent job behind a background one, and puts it back after',
    async (context) => {
      // Lowering a thread's nice value needs CAP_SYS_NICE.
      if (process.platform !== 'linux' || !hasSysNice()) return context.skip();
      const pool = startPool({ size: 1, workerData: { nice: { rest: 10, hurry: -5 } } });
      const { tid } = await pool.render('ok:started', 'background');
      expect(os.getPriority(tid)).toBe(10);
      const slow = gate('slow');
      const background = pool.render(`wait:${slow}`, 'background');
      await until(() => pool.status().running === 1, 'the background job to be handed out');
      expect(os.getPriority(tid)).toBe(10);
      // The worker is still on the background job: its whole thread hurries, so that job ends sooner.
      const urgent = gate('urgent');
      const now = pool.render(`wait:${urgent}`, 'now');
      expect(os.getPriority(tid)).toBe(-5);
      fs.writeFileSync(slow, '');
      await background;
      expect(os.getPriority(tid)).toBe(-5);
      fs.writeFileSync(urgent, '');
      expect((await now).tid).toBe(tid);
      expect(os.getPriority(tid)).toBe(10);
      expect((await pool.render('ok:after', 'background')).tid).toBe(tid);
      expect(os.getPriority(tid)).toBe(10);
    },
    WORKER_TEST_MS,
  );

  it(
    "leaves a worker holding a search page at its own nice value: readers' requests win the CPU over searches",
    async (context) => {
      if (process.platform !== 'linux' || !hasSysNice()) return context.skip();
      const pool = startPool({ size: 1, workerData: { nice: { rest: 10, hurry: -5 } }, unhurriedWaitMs: 600_000 });
      const { tid } = await pool.render('ok:started', 'background');
      const searching = gate('search');
      const search = pool.render(`wait:${searching}`, 'now', { searchPage: { refusal: null } });
      await until(() => pool.status().running === 1, 'the search page to be handed out');
      expect(os.getPriority(tid)).toBe(10);
      // A page someone waits for, handed to the same worker, hurries it; once that is done, the
      // search page it still holds does not keep it hurried.
      const urgent = gate('urgent');
      const now = pool.render(`wait:${urgent}`, 'now');
      expect(os.getPriority(tid)).toBe(-5);
      fs.writeFileSync(urgent, '');
      await now;
      expect(pool.status().running).toBe(1);
      expect(os.getPriority(tid)).toBe(10);
      fs.writeFileSync(searching, '');
      expect((await search).tid).toBe(tid);
      expect(os.getPriority(tid)).toBe(10);
    },
    WORKER_TEST_MS,
  );

  it(
    'runs a search page that has waited its while at nice 0: searches are slowed by readers, never starved',
    async (context) => {
      if (process.platform !== 'linux' || !hasSysNice()) return context.skip();
      const pool = startPool({ size: 1, workerData: { nice: { rest: 10, hurry: -5 } }, unhurriedWaitMs: 100 });
      const { tid } = await pool.render('ok:started', 'background');
      expect(os.getPriority(tid)).toBe(10);
      const searching = gate('search');
      const search = pool.render(`wait:${searching}`, 'now', { searchPage: { refusal: null } });
      await until(() => os.getPriority(tid) === 0, 'the held search page to run at nice 0');
      // A page someone waits for still hurries the worker past that, and the search page then
      // keeps it at 0 until it is done.
      const urgent = gate('urgent');
      const now = pool.render(`wait:${urgent}`, 'now');
      expect(os.getPriority(tid)).toBe(-5);
      fs.writeFileSync(urgent, '');
      await now;
      expect(os.getPriority(tid)).toBe(0);
      fs.writeFileSync(searching, '');
      await search;
      expect(os.getPriority(tid)).toBe(10);
    },
    WORKER_TEST_MS,
  );

  it(
    'stops its workers after a spell without jobs, never while it holds one, and starts them again for the next',
    async () => {
      const pool = startPool({ size: 2, restAfterMs: 100 });
      const first = await pool.render('ok:first');
      const slow = gate('slow');
      const held = pool.render(`wait:${slow}`, 'background');
      await until(() => pool.status().running === 1, 'the job to be handed out');
      // Started after the job was handed out, this pool's rest comes after the first pool's was due.
      const later = startPool({ size: 1, restAfterMs: 100 });
      await until(() => later.status().resting, 'the later pool to rest');
      expect(later.status()).toMatchObject({ workers: 0, size: 1 });
      expect(pool.status()).toMatchObject({ resting: false, workers: 2, running: 1 });

      fs.writeFileSync(slow, '');
      await held;
      await until(() => pool.status().resting, 'the pool to rest once it holds no job');
      expect(pool.status()).toMatchObject({ workers: 0, size: 2 });
      // The next job starts the workers again: a new thread answers it.
      const next = await pool.render('ok:next');
      expect(next.tid).not.toBe(first.tid);
      expect(next.order).toBe(1);
      expect(pool.status()).toMatchObject({ resting: false, workers: 2, replaced: 0 });

      // Woken, it starts its workers without a job, and rests again after the spell.
      await until(() => pool.status().resting, 'the pool to rest again');
      pool.wake();
      expect(pool.status()).toMatchObject({ resting: false, workers: 2 });
      await until(() => pool.status().resting, 'the pool to rest after the wake');
    },
    WORKER_TEST_MS,
  );

  it(
    'stops its workers soon when asked, once the jobs it holds are done, and not when a job or a wake came after',
    async () => {
      const pool = startPool({ size: 2, restAfterMs: 600_000 });
      await pool.render('ok:first');
      pool.restSoon(50);
      await until(() => pool.status().resting, 'the pool to rest soon after it was asked');
      expect(pool.status()).toMatchObject({ workers: 0, size: 2 });

      // Asked while it holds a job (the end of the burst): the workers stay up under it and stop
      // once it is done.
      const slow = gate('slow');
      const held = pool.render(`wait:${slow}`, 'background');
      await until(() => pool.status().running === 1, 'the job to be handed out');
      pool.restSoon(50);
      // Started after that ask, this pool's rest comes after the first pool's short one was due.
      const later = startPool({ size: 1, restAfterMs: 100 });
      await until(() => later.status().resting, 'the later pool to rest');
      expect(pool.status()).toMatchObject({ resting: false, workers: 2, running: 1 });
      fs.writeFileSync(slow, '');
      await held;
      await until(() => pool.status().resting, 'the pool to rest once the job it held is done');

      // A job after the ask: the pool's own rest spell (ten minutes) stands again.
      await pool.render('ok:started-again');
      pool.restSoon(50);
      await pool.render('ok:after-the-ask');
      const afterJob = startPool({ size: 1, restAfterMs: 100 });
      await until(() => afterJob.status().resting, 'a pool started after the job to rest');
      expect(pool.status()).toMatchObject({ resting: false, workers: 2 });

      // A wake after the ask (an admin at work) keeps the workers up for the whole spell.
      pool.restSoon(50);
      pool.wake();
      const afterWake = startPool({ size: 1, restAfterMs: 100 });
      await until(() => afterWake.status().resting, 'a pool started after the wake to rest');
      expect(pool.status()).toMatchObject({ resting: false, workers: 2 });

      // A pool whose workers never rest (RENDER_WORKERS_REST_SECONDS=0) keeps them.
      const keeper = startPool({ size: 1 });
      keeper.restSoon(10);
      const afterKeeper = startPool({ size: 1, restAfterMs: 100 });
      await until(() => afterKeeper.status().resting, 'a pool started after that ask to rest');
      expect(keeper.status()).toMatchObject({ resting: false, workers: 1 });
    },
    WORKER_TEST_MS,
  );

  it(
    "lets background jobs queued after the ask run before it stops, and keeps a recent wake's spell",
    async () => {
      const pool = startPool({ size: 2, restAfterMs: 600_000 });
      await pool.render('ok:first');
      // The top-viewed refresh: its hot page rendered, the ask made, then its share of the other
      // pages queued in the background. They are that work's tail, not someone waiting.
      pool.restSoon(50);
      const slow = gate('tail');
      const tail = pool.render(`wait:${slow}`, 'background');
      await until(() => pool.status().running === 1, 'the background job to be handed out');
      const later = startPool({ size: 1, restAfterMs: 100 });
      await until(() => later.status().resting, 'a pool started after the ask to rest');
      expect(pool.status()).toMatchObject({ resting: false, workers: 2, running: 1 });
      fs.writeFileSync(slow, '');
      await tail;
      await until(() => pool.status().resting, 'the pool to rest once the background tail is done');

      // A background job after the rest (a first reader's encoding of a refreshed page) starts
      // them again, and they stop once it is done; asked while they rest, the same.
      await pool.render('ok:late-tail', 'background');
      await until(() => pool.status().resting, 'the pool to rest once the late tail is done');
      pool.restSoon(50);
      await pool.render('ok:tail-after-an-ask-at-rest', 'background');
      await until(() => pool.status().resting, 'the pool to rest after a tail asked at rest');
      // A first reader waits for a refreshed page's encoding: still that work's tail.
      await pool.render('ok:an-encoding-waited-for', 'now', { body: new Uint8Array([1]) });
      await until(() => pool.status().resting, 'the pool to rest after an encoding waited for');

      // An admin at work woke the workers just before the ask: they stay up for the wake's spell.
      pool.wake();
      pool.restSoon(50);
      const afterAsk = startPool({ size: 1, restAfterMs: 100 });
      await until(() => afterAsk.status().resting, 'a pool started after the ask to rest');
      expect(pool.status()).toMatchObject({ resting: false, workers: 2 });
    },
    WORKER_TEST_MS,
  );

  it(
    'runs its workers in idle time when asked, at their share for an urgent job, and back',
    async (context) => {
      const idler = realIdler();
      if (!idler) return context.skip();
      const pool = startPool({ size: 2, idleThreads: idler });
      expect((await pool.render('ok:started')).key).toBe('ok:started');
      expect(idleThreads()).toHaveLength(0);
      pool.backgroundInIdleTime(true);
      // A worker still starting is moved once it is ready.
      await until(() => idleThreads().length === 2, 'both workers in idle time');
      // A background job leaves its worker in idle time; an urgent one moves every worker back first.
      const slow = gate('slow');
      const background = pool.render(`wait:${slow}`, 'background');
      await until(() => pool.status().running === 1, 'the background job to be handed out');
      expect(idleThreads()).toHaveLength(2);
      const urgent = gate('urgent');
      const now = pool.render(`wait:${urgent}`, 'now');
      expect(idleThreads()).toHaveLength(1);
      fs.writeFileSync(urgent, '');
      await now;
      expect(idleThreads()).toHaveLength(2);
      pool.backgroundInIdleTime(false);
      expect(idleThreads()).toHaveLength(0);
      fs.writeFileSync(slow, '');
      await background;
    },
    WORKER_TEST_MS,
  );

  it(
    'replaces a worker that could not leave idle time, and moves none again',
    async () => {
      const moves: Array<[number, boolean]> = [];
      // As without CAP_SYS_NICE: into idle time is allowed, back out is refused.
      const refusing: ThreadIdler = (tid, idle) => (moves.push([tid, idle]), idle);
      const lines: string[] = [];
      const pool = startPool({ idleThreads: refusing, log: (line) => lines.push(line) });
      expect((await pool.render('ok:after')).key).toBe('ok:after');
      expect(moves).toHaveLength(2);
      expect(moves.map(([, idle]) => idle)).toEqual([true, false]);
      expect(lines.join('\n')).toMatch(/could not leave idle time.*replacing it/);
      await until(() => pool.status().replaced === 1, 'the worker to be replaced');
      pool.backgroundInIdleTime(true);
      expect((await pool.render('ok:again', 'background')).key).toBe('ok:again');
      expect(moves).toHaveLength(2);
    },
    WORKER_TEST_MS,
  );

  it(
    'replaces every worker left in idle time when one is refused its way back',
    async () => {
      const idle = new Set<number>();
      let refuseBack = false;
      const idler: ThreadIdler = (tid, on) => {
        if (!on && refuseBack) return false;
        if (on) idle.add(tid);
        else idle.delete(tid);
        return true;
      };
      const lines: string[] = [];
      const pool = startPool({ size: 2, perWorker: 1, idleThreads: idler, log: (line) => lines.push(line) });
      pool.backgroundInIdleTime(true);
      await until(() => idle.size === 2, 'both workers in idle time');
      refuseBack = true;
      pool.backgroundInIdleTime(false);
      expect(lines.join('\n')).toMatch(/could not leave idle time; replacing the workers in it/);
      await until(() => pool.status().replaced === 2, 'both workers to be replaced');
      const before = idle.size;
      pool.backgroundInIdleTime(true);
      expect((await pool.render('ok:after', 'background')).key).toBe('ok:after');
      expect(idle.size).toBe(before);
    },
    WORKER_TEST_MS,
  );

  it(
    'refuses what is queued when it closes',
    async () => {
      const pool = startPool({ perWorker: 1 });
      const held = pool.render(`wait:${gate('never')}`);
      const queued = pool.render('ok:queued');
      const outcomes = Promise.allSettled([held, queued]);
      await pool.close();
      for (const outcome of await outcomes) {
        expect(outcome.status).toBe('rejected');
        expect((outcome as PromiseRejectedResult).reason).toBeInstanceOf(RenderFailed);
      }
      await expect(pool.render('ok:closed')).rejects.toThrow(/closed/);
    },
    WORKER_TEST_MS,
  );
});
