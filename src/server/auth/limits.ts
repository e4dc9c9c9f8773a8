import { RecencyMap } from '../../shared/recency-map.ts';
import { AppError } from '../errors.ts';
import type { RateLimitSettings } from '../config.ts';
import { createRateLimiter, retryAfterSeconds, type RateLimitDecision, type RateLimiter } from '../api/rate-limit.ts';
import { createBackoffLimiter, type BackoffLimiter } from '../api/backoff-limit.ts';
import { createHitLogIn } from '../api/shared-hit-log.ts';
import type { HitStore } from '../hit-store.ts';

/**
 * Brute-force limits for login and registration (docs/product.md#abuse-limits), sized by
 * `config.rateLimits`. Counts live in the shared hit store when the front server installed one
 * (every serving process counts against the same numbers), in this process's memory otherwise.
 *
 * - Per address and email (`loginAccount`, 15 minutes): a hard limit on guesses at one account.
 * - Per address (`loginIp`, an hour): the free failures, then a wait that doubles with each further
 *   failure (30 s up to 10 minutes), not an hour-long lock: many readers can share one address.
 * - An address and email that logged in successfully in the last 30 days is a known pair: the
 *   per-address wait does not apply to it (its failures still count there), so one guesser on a
 *   shared address does not lock out the readers who already log in from it.
 */
export type AuthLimitSettings = Pick<RateLimitSettings, 'loginAccount' | 'loginIp' | 'registerIp'>;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export const LOGIN_BACKOFF = { baseDelayMs: 30_000, maxDelayMs: 10 * MINUTE } as const;

export interface AuthLimiters {
  loginAccount: RateLimiter;
  loginIp: BackoffLimiter;
  registerIp: RateLimiter;
  knownLogins: RecentKeys;
}

export function createAuthLimiters(settings: AuthLimitSettings, now?: () => number, store?: HitStore): AuthLimiters {
  const clock = now ? { now } : {};
  const shared = (bucket: string) => (store ? { shared: { store, bucket } } : {});
  return {
    loginAccount: createRateLimiter({
      limit: settings.loginAccount,
      windowMs: 15 * MINUTE,
      ...clock,
      ...shared('login-account'),
    }),
    loginIp: createBackoffLimiter({ free: settings.loginIp, windowMs: HOUR, ...LOGIN_BACKOFF, ...clock, ...shared('login-ip') }),
    registerIp: createRateLimiter({ limit: settings.registerIp, windowMs: HOUR, ...clock, ...shared('register-ip') }),
    knownLogins: createRecentKeys({ ttlMs: 30 * DAY, maxKeys: 50_000, ...clock, ...shared('known-login') }),
  };
}

let madeForStore: HitStore | undefined;
let current: AuthLimiters | undefined;

/** The process's limiters, made on first use (Astro's bundle holds the one copy that counts). */
export function getAuthLimiters(settings: AuthLimitSettings, store?: HitStore): AuthLimiters {
  if (!current || madeForStore !== store) current = createAuthLimiters(settings, undefined, store);
  madeForStore = store;
  return current;
}

export function tooManyAttempts(decision: RateLimitDecision, message: string): AppError {
  return new AppError('rate_limited', message, { headers: { 'Retry-After': String(retryAfterSeconds(decision)) } });
}

export function loginAccountKey(ip: string, email: string): string {
  return `${ip}\n${email.trim().toLowerCase()}`;
}

const LOGIN_REFUSED = 'Too many failed login attempts. Please try again later.';

export interface LoginAttempt {
  /** The password was right: the attempt is taken back and the pair becomes known. */
  succeeded(): void;
}

/**
 * Counts a login attempt before its password is checked, so simultaneous attempts cannot all pass
 * a check made before any of them was counted (a failure then costs nothing more). Throws 429
 * when a limit is used up. Synchronous on purpose: no other request runs between check and count.
 */
export function startLoginAttempt(limiters: AuthLimiters, ip: string, email: string): LoginAttempt {
  const accountKey = loginAccountKey(ip, email);
  const account = limiters.loginAccount.take(accountKey);
  if (!account.allowed) throw tooManyAttempts(account, LOGIN_REFUSED);
  const known = limiters.knownLogins.has(accountKey);
  if (known) {
    limiters.loginIp.record(ip);
  } else {
    const address = limiters.loginIp.take(ip);
    if (!address.allowed) {
      limiters.loginAccount.refund(accountKey);
      throw tooManyAttempts(address, LOGIN_REFUSED);
    }
  }
  return {
    succeeded() {
      limiters.loginAccount.reset(accountKey);
      limiters.loginIp.refund(ip);
      limiters.knownLogins.add(accountKey);
    },
  };
}

/** Keys seen in the last `ttlMs`, at most `maxKeys` of them (the stalest go first). */
export interface RecentKeys {
  add(key: string): void;
  has(key: string): boolean;
}

export function createRecentKeys(options: {
  ttlMs: number;
  maxKeys: number;
  now?: () => number;
  shared?: { store: HitStore; bucket: string };
}): RecentKeys {
  const now = options.now ?? Date.now;
  if (options.shared) {
    // One hit per key is all it takes: a key is known while its latest hit is live.
    const log = createHitLogIn(options.shared, {
      windowMs: options.ttlMs,
      keep: 1,
      maxKeys: options.maxKeys,
      now,
      decide: (live) => ({ allowed: live.length === 0, remaining: 0, retryAfterMs: 0 }),
    });
    return { add: (key) => log.record(key), has: (key) => !log.check(key).allowed };
  }
  const seen = new RecencyMap<string, number>();
  return {
    add(key) {
      seen.set(key, now());
      while (seen.size > options.maxKeys) seen.delete(seen.oldest()!);
    },
    has(key) {
      const at = seen.peek(key);
      if (at === undefined) return false;
      if (now() - at < options.ttlMs) return true;
      seen.delete(key);
      return false;
    },
  };
}
