import path from 'node:path';

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
  /** The RATE_LIMIT_* variables (README "Configuration"). */
  rateLimits: RateLimitSettings;
  /** A comment posted sooner than this after its form loaded is held (COMMENT_MIN_FORM_SECONDS). */
  commentMinFormSeconds: number;
  /** Revisions kept per article; older ones are pruned at each save (REVISIONS_KEEP). */
  revisionsKeep: number;
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
  /** Searches per address per 10 seconds (RATE_LIMIT_SEARCH_IP). */
  searchIp: number;
}

export const DEFAULT_RATE_LIMITS: RateLimitSettings = { commentIp: 5, loginAccount: 5, loginIp: 20, registerIp: 3, searchIp: 30 };

export class ConfigError extends Error {}

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
  };
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
  return {
    host,
    port,
    publicOrigin,
    databasePath: env.DATABASE_PATH === ':memory:' ? ':memory:' : resolve(env.DATABASE_PATH, 'db/site.sqlite'),
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
    rateLimits: readRateLimits(env),
    commentMinFormSeconds: readInt(env, 'COMMENT_MIN_FORM_SECONDS', 3, 0, 3600),
    revisionsKeep: readInt(env, 'REVISIONS_KEEP', 50, 1, 10_000),
  };
}
