import { fork as forkProcess } from 'node:child_process';
import cluster, { type Worker } from 'node:cluster';
import { fileURLToPath } from 'node:url';
import type { Config } from '../config.ts';
import { describePrerender, type PrerenderSummary } from '../page-store/prerender-summary.ts';
import type { PrerenderShare } from './site.ts';
import type { RenderHelpMessage } from './render-help.ts';
import { RELAYED_TOPIC, type SiblingNews } from './sibling-news.ts';
import { siblingModuleUrl } from '../module-file.ts';
import { servingV8Flags } from './serving-memory.ts';
import { onceForSite, type LogOnceMessage } from '../log-once.ts';
import type { FirstProcessTask, PreparedMessage } from './first-process-tasks.ts';

/**
 * The first process when WEB_PROCESSES > 1: it serves nothing itself. Before any serving process
 * starts, a child process prepares the database once (migrations, admin, demo content) and checks
 * the page store for a crash (first-process-tasks.ts, so that this process never loads SQLite or
 * the page store's modules). Then this one forks the serving processes (node:cluster: they share
 * the one port), replaces one that dies, and on SIGTERM/SIGINT stops them all and exits when they
 * have closed. Process 0 is the lead: the once-only work (top-viewed check) runs there. When the
 * page store is empty (a first start, a new build), every process pre-renders its share of the
 * pages, so every render worker takes part, and this process prints the total.
 */
const WORKER_INDEX = 'WEB_WORKER_INDEX';
const PRERENDER_SHARE = 'WEB_PRERENDER_SHARE';

/** In a serving process: its index (0 is the lead), or null when this is not one. */
export function workerIndex(): number | null {
  return cluster.isWorker ? Number(process.env[WORKER_INDEX] ?? 0) : null;
}

/** In a serving process: the share of the pre-render the primary gave it, or null. */
export function prerenderShare(): PrerenderShare | null {
  const index = workerIndex();
  const of = Number(process.env[PRERENDER_SHARE] ?? 0);
  return index !== null && of > 0 ? { index, of, showProgress: index === 0 } : null;
}

/** What a serving process tells the primary when its share of the pre-render is done. */
interface PrerenderedMessage {
  type: 'prerendered';
  summary: PrerenderSummary;
}

/**
 * What a serving process tells the primary: it listens (main.ts), its pre-render share is done,
 * a save's hot pages to share with another process (render-help.ts, relayed both ways), or news
 * for every other process (sibling-news.ts).
 */
export type ServingMessage =
  | { type: 'listening'; origin: string }
  | PrerenderedMessage
  | RenderHelpMessage
  | SiblingNews
  | LogOnceMessage;

/**
 * Runs one of first-process-tasks.ts in a child process and waits for it; resolves with what it
 * sent (the `prepare` task's answer), or rejects when it failed (its reason is in the log).
 */
function runTask(task: FirstProcessTask): Promise<PreparedMessage | null> {
  return new Promise((resolve, reject) => {
    const child = forkProcess(fileURLToPath(siblingModuleUrl(import.meta.url, './first-process-tasks')), [task], {
      stdio: 'inherit',
    });
    let answer: PreparedMessage | null = null;
    child.on('message', (message: PreparedMessage) => (answer = message));
    child.once('error', reject);
    // 'close', not 'exit': it comes after the channel closed, so after the task's last message.
    child.once('close', (code, signal) =>
      code === 0 ? resolve(answer) : reject(new Error(`the ${task} task stopped (${signal ?? `exit ${code}`}); see above`)),
    );
  });
}

export async function runPrimary(config: Config, log: (line: string) => void = console.log): Promise<void> {
  const prepared = await runTask('prepare');
  if (!prepared) throw new Error('preparing the database did not say whether the page store needs its pre-render');

  // The workers run the server itself, not `npm start`'s build check (which could rebuild under them).
  cluster.setupPrimary({
    exec: fileURLToPath(siblingModuleUrl(import.meta.url, './main')),
    execArgv: servingV8Flags(process.execArgv),
  });
  const ready = new Set<number>();
  const startedAt = new Map<number, number>();
  const restartDelay = new Map<number, number>();
  let shuttingDown = false;
  let announced = false;
  const alive = new Set<Worker>();
  const byIndex = new Map<number, Worker>();
  let nextHelper = 0;
  /**
   * Sends to one serving process, if it is still there. A channel that just closed (the process
   * is stopping) is not an error: an asker that waited on it goes on at its time-out.
   */
  const sendTo = (index: number, out: RenderHelpMessage | SiblingNews): boolean => {
    try {
      byIndex.get(index)?.send(out);
      return byIndex.has(index);
    } catch {
      return false;
    }
  };
  /** Hands a save's hot pages to another ready process, or its answer back to the asker. */
  const relayRenderHelp = (from: number, message: RenderHelpMessage) => {
    if (message.type === 'render-helped') {
      if (message.to !== undefined) sendTo(message.to, message);
      return;
    }
    const others = [...ready].filter((index) => index !== from && byIndex.has(index));
    if (others.length === 0) return sendTo(from, { type: 'render-helped', id: message.id, done: false });
    sendTo(others[nextHelper++ % others.length]!, { ...message, from });
  };
  /**
   * News from one serving process for all the others (a process not listening yet gets it too),
   * or for one (`to`: an ack). An asker (`id`) learns which listening ones got it: it waits for
   * their acks, not for a process still starting.
   */
  const relaySiblingNews = (from: number, message: SiblingNews) => {
    const relayedTo: number[] = [];
    for (const index of [...byIndex.keys()]) {
      if (index === from || (message.to !== undefined && index !== message.to)) continue;
      if (sendTo(index, { ...message, from }) && ready.has(index)) relayedTo.push(index);
    }
    if (message.id !== undefined && message.to === undefined)
      sendTo(from, { type: 'sibling-news', topic: RELAYED_TOPIC, payload: { id: message.id, to: relayedTo } });
  };
  // The shares of the pre-render not reported done yet: of an empty store, or carrying on one
  // stopped before its end. A process restarted before it finished is given its share again;
  // pages already fresh are skipped.
  const sharesLeft = new Set<number>(prepared.prerenderNeeded ? Array.from({ length: config.webProcesses }, (_, i) => i) : []);
  const shares: PrerenderSummary[] = [];
  const onPrerendered = (index: number, summary: PrerenderSummary) => {
    // A share stopped by the server closing stays left: the next start carries it on.
    if (summary.stopped || !sharesLeft.delete(index)) return;
    shares.push(summary);
    if (sharesLeft.size > 0) return;
    // Not marked (the task failed, its reason above): the next start carries the pre-render on.
    void runTask('prerendered').then(
      () => log(describePrerender(shares, config.pageStoreMaxMb)),
      (error: Error) => log(`Pre-render done but not recorded: ${error.message}`),
    );
  };

  const warnOnce = onceForSite((line) => console.warn(line));

  const fork = (index: number) => {
    const worker = cluster.fork({
      [WORKER_INDEX]: String(index),
      [PRERENDER_SHARE]: sharesLeft.has(index) ? String(config.webProcesses) : '0',
    });
    alive.add(worker);
    byIndex.set(index, worker);
    startedAt.set(index, Date.now());
    worker.on('message', (message: ServingMessage) => {
      if (message.type === 'prerendered') return onPrerendered(index, message.summary);
      if (message.type === 'render-help' || message.type === 'render-helped') return relayRenderHelp(index, message);
      if (message.type === 'sibling-news') return relaySiblingNews(index, message);
      if (message.type === 'log-once') return warnOnce(message);
      if (message.type !== 'listening') return;
      ready.add(index);
      if (!announced && ready.size === config.webProcesses) {
        announced = true;
        log(`Study site listening on ${message.origin} (public origin ${config.publicOrigin}, ${config.webProcesses} processes)`);
      }
    });
    worker.once('exit', (code, signal) => onExit(worker, index, code, signal));
  };

  // The page-store checks after deaths, one after another.
  let afterDeaths: Promise<unknown> = Promise.resolve();
  const onExit = (worker: Worker, index: number, code: number | null, signal: string | null) => {
    alive.delete(worker);
    if (byIndex.get(index) === worker) byIndex.delete(index);
    if (shuttingDown) {
      if (alive.size === 0) process.exit();
      return;
    }
    if (!ready.has(index)) {
      // It never served: a start failure (its message is in the log), not something a restart mends.
      log(`A serving process could not start (exit ${code ?? signal}); stopping.`);
      shuttingDown = true;
      for (const other of alive) other.process.kill('SIGTERM');
      process.exitCode = 1;
      if (alive.size === 0) process.exit();
      return;
    }
    ready.delete(index);
    // A process that keeps dying right after its start waits longer each time (up to 30 s).
    const livedMs = Date.now() - (startedAt.get(index) ?? 0);
    const delay = livedMs > 30_000 ? 200 : Math.min(30_000, (restartDelay.get(index) ?? 100) * 2);
    restartDelay.set(index, delay);
    log(`Serving process ${worker.process.pid} stopped (${signal ?? `exit ${code}`}); starting another in ${delay} ms`);
    // Its replacement starts once the stored pages it may have left stale are dropped; deaths
    // close together are dealt with one after another, as they were on this thread.
    afterDeaths = afterDeaths
      .then(() => runTask('process-died'))
      .catch((error: Error) => log(`Checking the page store after that failed: ${error.message}`))
      .then(() => void setTimeout(() => !shuttingDown && fork(index), delay).unref());
  };

  const shutdown = (signal: NodeJS.Signals) => {
    if (shuttingDown) return;
    shuttingDown = true;
    log(`${signal}: closing ${alive.size} serving processes`);
    for (const worker of alive) worker.process.kill('SIGTERM');
    // Each closes within its own 5 s; past that they are stopped hard.
    setTimeout(() => {
      for (const worker of alive) worker.process.kill('SIGKILL');
      process.exit();
    }, 8000).unref();
    if (alive.size === 0) process.exit();
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));

  // One scrape answers the sum over every serving process, whichever are running. Loaded only
  // when asked for: prom-client is a few MB this process would otherwise keep for nothing.
  if (config.metricsAddress) {
    const [{ clusterMetrics }, { startMetricsListener }] = await Promise.all([
      import('../metrics/registry.ts'),
      import('../metrics/listener.ts'),
    ]);
    const metrics = await startMetricsListener(config.metricsAddress, clusterMetrics());
    log(`Metrics on ${metrics.origin}/metrics (the sum over the serving processes)`);
  }

  for (let index = 0; index < config.webProcesses; index++) fork(index);
}
