import os from 'node:os';
import path from 'node:path';
import { ConfigError } from './config-error.ts';
import { readMailSettings, type MailSettings } from './config-mail.ts';

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
}

/** The headers a shared cache reads a page's tags from (CDN_TAG_HEADERS). */
export const CDN_TAG_HEADER_NAMES = ['xkey', 'Surrogate-Key', 'Cache-Tag'] as const;
export type CdnTagHeader = (typeof CDN_TAG_HEADER_NAMES)[number];

export interface CdnSettings {
  /** Which tag headers public pages carry; empty when no shared cache is configured. */
  tagHeaders: CdnTagHeader[];
  /** Base URLs of the Varnish servers to purge (PURGE_VARNISH). */
  purgeVarnish: URL[];
  /** How long a shared cache may keep a page (CDN_MAX_AGE_SECONDS): purges make it fresh sooner. */
  maxAgeSeconds: number;
  /**
   * Sent with every purge (PURGE_SECRET; required with PURGE_VARNISH): the VCL honours a purge only
   * from its acl and with this value, so a reader behind a proxy on the same host cannot purge.
   */
  purgeSecret: string | null;
  /**
   * The longest a save or a comment waits for the caches to confirm its purge (PURGE_WAIT_MS); a
   * purge not confirmed by then is pending, retried in the background and shown to the admin.
   */
  purgeWaitMs: number;
}

/** Abuse limits, each keyed on the client's address (see api/client-ip.ts). */
export interface RateLimitSettings {
  /** Comments per address per 10 minutes (RATE_LIMIT_COMMENT_IP). */
  commentIp: number;
  /** Failed logins per address and email per 15 minutes (RATE_LIMIT_LOGIN_ACCOUNT). */
  loginAccount: number;
  /** Failed logins per address per hour before each further try must wait (RATE_LIMIT_LOGIN_IP). */
  loginIp: number;
  /** Sign-ups per address per hour (RATE_LIMIT_REGISTER_IP). */
  registerIp: number;
  /** Searches per address per window (RATE_LIMIT_SEARCH_IP). */
  searchIp: number;
  /** That window, in seconds (RATE_LIMIT_SEARCH_WINDOW_SECONDS, default 10). */
  searchWindowSeconds: number;
  /** Answers to unknown addresses per second and serving process before they wait their turn (RATE_LIMIT_NOT_FOUND_PER_SECOND). */
  notFoundPerSecond: number;
  /** Password-reset requests per address per hour (RATE_LIMIT_RESET_IP). */
  resetIp: number;
  /** Password-reset mails per email address per hour (RATE_LIMIT_RESET_EMAIL). */
  resetEmail: number;
}

export const DEFAULT_RATE_LIMITS: RateLimitSettings = {
  commentIp: 5,
  loginAccount: 5,
  loginIp: 20,
  registerIp: 3,
  searchIp: 30,
  searchWindowSeconds: 10,
  notFoundPerSecond: 100,
  resetIp: 10,
  resetEmail: 3,
};

function readInt(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(`${name} must be a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${value}`);
  return value;
}

function readBoolWord(raw: string): boolean | null {
  if (/^(1|true|yes|on)$/i.test(raw)) return true;
  if (/^(0|false|no|off)$/i.test(raw)) return false;
  return null;
}

function readBool(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = readBoolWord(raw);
  if (value !== null) return value;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
}

function readRateLimits(env: NodeJS.ProcessEnv): RateLimitSettings {
  const limit = (name: string, fallback: number) => readInt(env, name, fallback, 1, 1_000_000);
  return {
    commentIp: limit('RATE_LIMIT_COMMENT_IP', DEFAULT_RATE_LIMITS.commentIp),
    loginAccount: limit('RATE_LIMIT_LOGIN_ACCOUNT', DEFAULT_RATE_LIMITS.loginAccount),
    loginIp: limit('RATE_LIMIT_LOGIN_IP', DEFAULT_RATE_LIMITS.loginIp),
    registerIp: limit('RATE_LIMIT_REGISTER_IP', DEFAULT_RATE_LIMITS.registerIp),
    searchIp: limit('RATE_LIMIT_SEARCH_IP', DEFAULT_RATE_LIMITS.searchIp),
    searchWindowSeconds: readInt(env, 'RATE_LIMIT_SEARCH_WINDOW_SECONDS', DEFAULT_RATE_LIMITS.searchWindowSeconds, 1, 86_400),
    notFoundPerSecond: limit('RATE_LIMIT_NOT_FOUND_PER_SECOND', DEFAULT_RATE_LIMITS.notFoundPerSecond),
    resetIp: limit('RATE_LIMIT_RESET_IP', DEFAULT_RATE_LIMITS.resetIp),
    resetEmail: limit('RATE_LIMIT_RESET_EMAIL', DEFAULT_RATE_LIMITS.resetEmail),
  };
}

/** CDN_TAG_HEADERS: a comma list of xkey, Surrogate-Key, Cache-Tag (any case); PURGE_VARNISH alone implies xkey. */
function readCdn(env: NodeJS.ProcessEnv): CdnSettings {
  const purgeVarnish = (env.PURGE_VARNISH ?? '')
    .split(/[\s,]+/)
    .filter(Boolean)
    .map((raw) => {
      try {
        const url = new URL(raw);
        if (url.protocol !== 'http:') throw new Error('protocol');
        return url;
      } catch {
        throw new ConfigError(`PURGE_VARNISH must be http:// base URLs separated by commas, got "${raw}"`);
      }
    });
  const names = (env.CDN_TAG_HEADERS ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const tagHeaders: CdnTagHeader[] = [];
  for (const name of names) {
    const known = CDN_TAG_HEADER_NAMES.find((candidate) => candidate.toLowerCase() === name.toLowerCase());
    if (!known) throw new ConfigError(`CDN_TAG_HEADERS may name ${CDN_TAG_HEADER_NAMES.join(', ')}; got "${name}"`);
    if (!tagHeaders.includes(known)) tagHeaders.push(known);
  }
  if (purgeVarnish.length > 0 && !tagHeaders.includes('xkey')) {
    if (names.length > 0) throw new ConfigError('PURGE_VARNISH purges by the xkey header: add xkey to CDN_TAG_HEADERS');
    tagHeaders.push('xkey');
  }
  return {
    tagHeaders,
    purgeVarnish,
    maxAgeSeconds: readInt(env, 'CDN_MAX_AGE_SECONDS', 86400, 1, 31536000),
    purgeSecret: readPurgeSecret(env, purgeVarnish.length > 0),
    purgeWaitMs: readInt(env, 'PURGE_WAIT_MS', 250, 0, 10_000),
  };
}

/**
 * PURGE_SECRET: the VCL compares it as a plain string in a header, so it must be long enough not
 * to be guessed and made of characters a header and a VCL string carry unchanged (hex, base64).
 */
function readPurgeSecret(env: NodeJS.ProcessEnv, purging: boolean): string | null {
  const raw = env.PURGE_SECRET ?? '';
  if (raw === '') {
    if (purging)
      throw new ConfigError('PURGE_VARNISH needs PURGE_SECRET, the value written in site-backends.vcl (openssl rand -hex 32)');
    return null;
  }
  if (!/^[A-Za-z0-9+/=._~-]{32,256}$/.test(raw))
    throw new ConfigError('PURGE_SECRET must be 32 to 256 letters, digits or + / = . _ ~ - (openssl rand -hex 32)');
  return raw;
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

export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Config {
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
  const cores = Math.max(1, os.availableParallelism());
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
    pageMemoryMb: readInt(env, 'PAGE_MEMORY_MB', 48, 1, 4096),
    pageStoreMaxMb: readInt(env, 'PAGE_STORE_MAX_MB', 1024, 1, 1024 * 1024),
    pageStoreEnabled: readBool(env, 'PAGE_STORE', true),
    // Each serving process has its own pool: together they make about one render thread per core.
    renderWorkers: readInt(env, 'RENDER_WORKERS', Math.max(1, Math.round(cores / webProcesses)), 1, 64),
    renderWorkerMemoryMb: readInt(env, 'RENDER_WORKER_MEMORY_MB', 256, 64, 4096),
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
  };
}
