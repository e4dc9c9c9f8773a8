// The first process's work on the database and the page store, run in a child process of its own
// (cluster-primary.ts forks this file with the task's name). The first process only watches the
// serving ones for the whole life of the server: had it opened SQLite and loaded the page store's
// modules itself, it would have kept them, about 22 MB of its 71 for nothing (a bare `node` is 46).
// Each task exits 0 when done, 1 after saying why. The whole server (bootstrap.ts) is loaded by the
// start's task only: after a serving process died, the check took 0.15 s and 58 MB without it,
// against 0.68 s and 100 MB with it, on a machine with no idle core.
import { loadConfig, type Config } from '../config.ts';
import { markStoreOpen } from '../page-store/crash-marker.ts';
import { openRateHitStore } from '../db/repositories/rate-hits.ts';
import { dropStoredPages } from '../page-store/store-file.ts';
import { PageStore } from '../page-store/store.ts';
import { storeBuildId } from '../page-store/build-id.ts';

/** What the `prepare` task tells the first process before it exits. */
export interface PreparedMessage {
  type: 'prepared';
  /** The page store holds no page of this build (and is enabled): the serving processes pre-render it. */
  prerenderNeeded: boolean;
}

export type FirstProcessTask = 'prepare' | 'prerendered' | 'process-died';

const log = (line: string) => console.log(line);

/** Opens the page store in this process for one use, and closes it. */
function withPageStore<T>(config: Config, options: { check?: boolean; setAside: boolean }, act: (store: PageStore) => T): T {
  const store = new PageStore({ dir: config.pageStoreDir, buildId: storeBuildId(config), log, ...options });
  try {
    return act(store);
  } finally {
    store.close();
  }
}

/**
 * Before any serving process starts: migrations, the admin, the demo content; the shared
 * rate-limit file, made once rather than by every serving process at the same moment; the crash
 * check (a dead `running-<pid>` marker drops the stored pages); then the store's file is checked
 * (a damaged one is set aside, unless another server has it open) and opened, which drops another
 * build's pages, as a serving process would. Answers whether the store needs its pre-render.
 */
async function prepare(config: Config): Promise<PreparedMessage> {
  const { prepareApp } = await import('../bootstrap.ts');
  const prepared = await prepareApp(config);
  prepared.sqlite.close();
  openRateHitStore(config.limitsPath).close();
  const boot = markStoreOpen(config.pageStoreDir);
  boot.release();
  if (boot.previousRunCrashed) {
    dropStoredPages(config.pageStoreDir, boot.othersRunning);
    log('Page store: the last run did not close cleanly; stored pages were dropped and are rendered again');
  }
  // Checked whether or not the store is enabled, as a start always did: the check sets a damaged
  // file aside.
  const empty = withPageStore(config, { check: true, setAside: boot.othersRunning === 0 }, (store) => store.needsPrerender());
  return { type: 'prepared', prerenderNeeded: empty && config.pageStoreEnabled };
}

/**
 * A serving process died: a write it committed may not have reached its tags, so the stored pages
 * go (the rows; its siblings keep the file open).
 */
function afterProcessDied(config: Config): void {
  const check = markStoreOpen(config.pageStoreDir);
  check.release();
  if (!check.previousRunCrashed) return;
  dropStoredPages(config.pageStoreDir, Math.max(1, check.othersRunning));
  log('Page store: a serving process died; stored pages were dropped and are rendered again');
}

const task = process.argv[2] as FirstProcessTask;
const config = loadConfig();
try {
  if (task === 'prepare') {
    const message = await prepare(config);
    // The first process reads it before this process exits (the channel keeps it alive until sent).
    await new Promise<void>((resolve, reject) =>
      process.send!(message, (error: Error | null) => (error ? reject(error) : resolve())),
    );
  } else if (task === 'prerendered') {
    // Every share of the pre-render ran to its end: the next start has none to carry on.
    withPageStore(config, { setAside: false }, (store) => store.markPrerendered());
  } else if (task === 'process-died') {
    afterProcessDied(config);
  } else {
    throw new Error(`unknown task ${String(task)}`);
  }
  process.exit(0);
} catch (error) {
  const { describeStartFailure } = await import('./start-failure.ts');
  console.error(
    task === 'prepare' ? describeStartFailure(error, config) : `The first process's ${task} task failed: ${String(error)}`,
  );
  process.exit(1);
}
