// The production server: prepares the database, then serves the built site (`npm run build` first).
// With WEB_PROCESSES > 1 this process starts that many serving processes on the one port
// (cluster-primary.ts) and each of them runs this file too.
// First, before any module that loads a native one: stop with a message on a Node too old to run
// the project (it would crash with SIGSEGV in better-sqlite3). Copied beside the build by compile-server.ts.
import '../../../scripts/require-node.mjs';
import cluster from 'node:cluster';
import { loadConfig, ConfigError, type Config } from '../config.ts';
import type { Site } from './site.ts';
import { describePrerender } from '../page-store/prerender-summary.ts';
import { prerenderShare, runPrimary, workerIndex, type ServingMessage } from './cluster-primary.ts';
import { keepTickObjectShape } from './tick-shape.ts';
import { boundHeapGrowth } from './serving-memory.ts';

let config: Config;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(`Configuration error: ${error.message}`);
    process.exit(1);
  }
  throw error;
}

// React picks its slow development build unless told otherwise; the site's own notion of
// production (config.production) still follows what the operator set.
process.env.NODE_ENV ||= 'production';

const index = workerIndex();
if (index === null && config.webProcesses > 1 && cluster.isPrimary) {
  try {
    await runPrimary(config);
  } catch (error) {
    await reportStartFailure(error);
  }
} else {
  await serve(index);
}

/**
 * Says why the server could not start, and stops. Loaded only then: what it loads to look at the
 * database file (SQLite's module) would otherwise stay in the first process for its whole life.
 */
async function reportStartFailure(error: unknown): Promise<never> {
  const { describeStartFailure } = await import('./start-failure.ts');
  console.error(describeStartFailure(error, config));
  process.exit(1);
}

async function serve(index: number | null): Promise<void> {
  // First, before the start-up's own collections: every later request's process.nextTick stays on
  // V8's fast path (tick-shape.ts).
  keepTickObjectShape();
  // A single serving process was not started by the primary with the serving processes' heap growth.
  boundHeapGrowth(process.execArgv);
  const role = { lead: index === null || index === 0, inCluster: index !== null, index: index ?? 0 };
  let site: Site;
  try {
    // Loaded here, not at the top: the first process of several never serves, and stays small.
    const { startSite } = await import('./site.ts');
    site = await startSite(config, console.log, role);
  } catch (error) {
    return reportStartFailure(error);
  }
  if (role.inCluster) process.send?.({ type: 'listening', origin: site.origin } satisfies ServingMessage);
  else console.log(`Study site listening on ${site.origin} (public origin ${config.publicOrigin})`);

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    if (!role.inCluster) console.log(`${signal}: closing`);
    setTimeout(() => process.exit(0), 5000).unref();
    void site.close().then(() => process.exit(0));
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));

  // A first start (or a new build) fills the page store in the background; readers asking
  // meanwhile get their page rendered on demand. When several serve, each renders the share the
  // primary gave it, and the primary prints the total.
  if (role.inCluster) {
    const share = prerenderShare();
    if (share) {
      const summary = await site.prerender(share);
      process.send?.({ type: 'prerendered', summary } satisfies ServingMessage);
    }
  } else if (config.pageStoreEnabled && site.store.needsPrerender()) {
    const summary = await site.prerender();
    if (summary.stopped) return;
    site.store.markPrerendered();
    console.log(describePrerender([summary], config.pageStoreMaxMb));
  }
}
