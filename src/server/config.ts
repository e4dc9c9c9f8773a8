import os from 'node:os';
import path from 'node:path';
import { ConfigError } from './config-error.ts';
import { readMailSettings, type MailSettings } from './config-mail.ts';
import { readCdn, type CdnSettings } from './config-cdn.ts';
import { readRateLimits, type RateLimitSettings } from './config-limits.ts';
import { readBool, readInt } from './config-read.ts';

// The rest of the server takes every setting's type from here, whichever module reads it.
export { CDN_TAG_HEADER_NAMES, type CdnSettings, type CdnTagHeader } from './config-cdn.ts';
export { DEFAULT_RATE_LIMITS, type RateLimitSettings } from './config-limits.ts';

export { ConfigError };

/** Everything the server reads from the environment, validated once at start. */
export interface Config {
  host: string;
  port: number;
  publicOrigin: string;
  databasePath: string;
  uploadsDir: string;
  pageStoreDir: string;
  adminEmail: string | undefined;
  adminPassword: string | undefined;
  production: boolean;
  seedDemo: boolean;
  topViewedRefreshMs: number;
  trustProxy: boolean;
  /** Where `astro build` wrote the site (DIST_DIR, default dist/). */
  distDir: string;
  /** Memory for hot stored pages, in MiB (PAGE_MEMORY_MB). */
  pageMemoryMb: number;
  /** Disk budget of the page store, in MiB (PAGE_STORE_MAX_MB): past it the least recently used pages go. */
  pageStoreMaxMb: number;
  /** PAGE_STORE=off renders every page per request (for benchmarks and debugging). */
  pageStoreEnabled: boolean;
  /** Render worker threads (RENDER_WORKERS, default one per core): every public page is rendered by one. */
  renderWorkers: number;
  /** Heap limit of each render worker in MiB (RENDER_WORKER_MEMORY_MB): past it the worker is replaced. */
  renderWorkerMemoryMb: number;
  /**
   * Seconds without a render after which the render workers stop, to start again with the next
   * render (RENDER_WORKERS_REST_SECONDS; 0: they never stop).
   */
  renderWorkersRestSeconds: number;
  /** The RATE_LIMIT_* variables (README "Configuration"). */
  rateLimits: RateLimitSettings;
  /** A comment posted sooner than this after its form loaded is held (COMMENT_MIN_FORM_SECONDS). */
  commentMinFormSeconds: number;
  /** A comment posted with a form token older than this is held (COMMENT_FORM_TOKEN_MAX_HOURS, in seconds here). */
  commentMaxFormSeconds: number;
  /** A comment posted without the form's token is held (COMMENT_REQUIRE_FORM_TOKEN, default on). */
  commentRequireFormToken: boolean;
  /** The most comments kept unseen, held or marked as spam (COMMENT_HELD_MAX): the oldest go past it. */
  commentHeldMax: number;
  /** Shared caches in front (Varnish, a CDN): tag headers and purges (src/server/cdn/). */
  cdn: CdnSettings;
  /** `host:port` of the Prometheus metrics listener (METRICS_ADDRESS), or null: off. */
  metricsAddress: { host: string; port: number } | null;
  /** Serving processes sharing the port (WEB_PROCESSES, default: the number of cores). */
  webProcesses: number;
  /** The rate limits' shared file, beside the database (`site-limits.sqlite` for `site.sqlite`). */
  limitsPath: string;
  /** Revisions kept per article and per About/Contact page; older ones are pruned at each save (REVISIONS_KEEP). */
  revisionsKeep: number;
  /** Outgoing mail (SMTP_URL, MAIL_FROM); null: mail is off and nothing offers to send any. */
  mail: MailSettings | null;
  /** What the tests may make the server do; all off unless NODE_ENV=test (`readTestSeams`). */
  testSeams: TestSeams;
}

/**
 * The few hooks the suite needs in a real built server, read here once and only in a test build
 * (NODE_ENV=test): in any other build every one is off whatever the environment says.
 */
export interface TestSeams {
  /** The page store's file fails every write, as on a full disk (PAGE_STORE_TEST_FAULT=full). */
  storeWritesFail: boolean;
  /** A render of the page key written in this file waits while the file names it (PAGE_STORE_TEST_HOLD). */
  renderHoldFile: string | null;
  /** Each answer names its serving process (`X-Process: <pid>`) and a search page its rendering thread (`x-rendered-by`). */
  markAnswers: boolean;
  /**
   * How long a save waits for another process to render its share of the hot pages before
   * rendering them itself (RENDER_HELP_TEST_WAIT_MS; null: the server's own 2 s). A test of that
   * help waits longer: on a machine busy with other work the helper's renders take longer than 2 s.
   */
  renderHelpWaitMs: number | null;
}

function readTestSeams(env: NodeJS.ProcessEnv): TestSeams {
  const on = env.NODE_ENV === 'test';
  return {
    storeWritesFail: on && env.PAGE_STORE_TEST_FAULT === 'full',
    renderHoldFile: on ? env.PAGE_STORE_TEST_HOLD || null : null,
    markAnswers: on,
    renderHelpWaitMs: on && Number(env.RENDER_HELP_TEST_WAIT_MS) > 0 ? Number(env.RENDER_HELP_TEST_WAIT_MS) : null,
  };
}

/** METRICS_ADDRESS: `host:port` (IPv6 in brackets), off when unset. */
function readMetricsAddress(env: NodeJS.ProcessEnv): Config['metricsAddress'] {
  const raw = env.METRICS_ADDRESS;
  if (!raw) return null;
  const match = /^(\[[0-9a-fA-F:.]+\]|[\w.-]+):(\d{1,5})$/.exec(raw);
  const port = match ? Number(match[2]) : NaN;
  if (!match || port > 65535) throw new ConfigError(`METRICS_ADDRESS must be host:port such as 127.0.0.1:9464, got "${raw}"`);
  return { host: match[1]!.replace(/^\[|\]$/g, ''), port };
}

/** What the machine has, for the defaults that depend on it. */
export interface Machine {
  cores: number;
  memoryBytes: number;
}

const THIS_MACHINE: Machine = { cores: os.availableParallelism(), memoryBytes: os.totalmem() };

/**
 * A render worker holds 40-50 MB (Astro, the renderers, their compiled code) whether it renders
 * or not, and readers of stored pages never need one. After a minute without a render the workers
 * stop; the next render (a search, a save) first waits for them to start (about a second on a
 * loaded 2-core machine), and any request the live parts of the site answer (the admin, the API,
 * a form) starts them ahead of a save. The search thread stops after the same quiet minute.
 */
const RENDER_WORKERS_REST_SECONDS = 60;

/**
 * Memory for hot stored pages per process, by default: 48 MiB (at 10,000 articles about 12,000
 * pages read in brotli, counted with their real overhead), less on a small machine, so that every
 * process's pages together take at most 1/32 of its memory (32 MiB for one process on 1 GiB).
 */
export function defaultPageMemoryMb(machine: Machine, webProcesses: number): number {
  const share = Math.floor(machine.memoryBytes / 1048576 / 32 / webProcesses);
  return Math.max(8, Math.min(48, share));
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd(), machine = THIS_MACHINE): Config {
  const port = readInt(env, 'PORT', 4321, 0, 65535);
  const host = env.HOST || '127.0.0.1';
  const originRaw = env.PUBLIC_ORIGIN || `http://${host === '0.0.0.0' || host === '::' ? 'localhost' : host}:${port}`;
  let publicOrigin: string;
  try {
    const url = new URL(originRaw);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('protocol');
    publicOrigin = url.origin;
  } catch {
    throw new ConfigError(`PUBLIC_ORIGIN must be an http(s) origin such as https://example.org, got "${originRaw}"`);
  }
  const adminEmail = env.ADMIN_EMAIL || undefined;
  const adminPassword = env.ADMIN_PASSWORD || undefined;
  if (adminEmail && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(adminEmail)) {
    throw new ConfigError(`ADMIN_EMAIL must be an email address, got "${adminEmail}"`);
  }
  if (adminPassword !== undefined && adminPassword.length < 8) {
    throw new ConfigError('ADMIN_PASSWORD must be at least 8 characters');
  }
  const resolve = (value: string | undefined, fallback: string) => path.resolve(cwd, value || fallback);
  const databasePath = env.DATABASE_PATH === ':memory:' ? ':memory:' : resolve(env.DATABASE_PATH, 'db/site.sqlite');
  const cores = Math.max(1, machine.cores);
  const webProcesses = readInt(env, 'WEB_PROCESSES', cores, 1, 256);
  return {
    host,
    port,
    publicOrigin,
    databasePath,
    limitsPath: databasePath === ':memory:' ? ':memory:' : databasePath.replace(/(\.sqlite3?|\.db)?$/, '-limits.sqlite'),
    uploadsDir: resolve(env.UPLOADS_DIR, 'uploads'),
    pageStoreDir: resolve(env.PAGE_STORE_DIR, 'data/pages'),
    adminEmail,
    adminPassword,
    production: env.NODE_ENV === 'production',
    seedDemo: readBool(env, 'SEED_DEMO', true),
    topViewedRefreshMs: readInt(env, 'TOP_VIEWED_REFRESH_SECONDS', 60, 1, 86400) * 1000,
    trustProxy: readBool(env, 'TRUST_PROXY', false),
    distDir: resolve(env.DIST_DIR, 'dist'),
    pageMemoryMb: readInt(env, 'PAGE_MEMORY_MB', defaultPageMemoryMb(machine, webProcesses), 1, 4096),
    pageStoreMaxMb: readInt(env, 'PAGE_STORE_MAX_MB', 1024, 1, 1024 * 1024),
    pageStoreEnabled: readBool(env, 'PAGE_STORE', true),
    // Each serving process has its own pool: together they make about one render thread per core.
    renderWorkers: readInt(env, 'RENDER_WORKERS', Math.max(1, Math.round(cores / webProcesses)), 1, 64),
    renderWorkerMemoryMb: readInt(env, 'RENDER_WORKER_MEMORY_MB', 256, 64, 4096),
    renderWorkersRestSeconds: readInt(env, 'RENDER_WORKERS_REST_SECONDS', RENDER_WORKERS_REST_SECONDS, 0, 86_400),
    rateLimits: readRateLimits(env),
    commentMinFormSeconds: readInt(env, 'COMMENT_MIN_FORM_SECONDS', 3, 0, 3600),
    commentMaxFormSeconds: readInt(env, 'COMMENT_FORM_TOKEN_MAX_HOURS', 24, 1, 24 * 365) * 3600,
    commentRequireFormToken: readBool(env, 'COMMENT_REQUIRE_FORM_TOKEN', true),
    commentHeldMax: readInt(env, 'COMMENT_HELD_MAX', 1000, 10, 1_000_000),
    cdn: readCdn(env),
    metricsAddress: readMetricsAddress(env),
    webProcesses,
    revisionsKeep: readInt(env, 'REVISIONS_KEEP', 50, 1, 10_000),
    mail: readMailSettings(env),
    testSeams: readTestSeams(env),
  };
}
