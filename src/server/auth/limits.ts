import { AppError } from '../errors.ts';
import {
  createRateLimiter,
  readLimitFromEnv,
  retryAfterSeconds,
  type RateLimitDecision,
  type RateLimiter,
} from '../api/rate-limit.ts';

/**
 * Brute-force limits for login and registration (security.md section 6). Counts live in this
 * process. The numbers come from the environment so a test server can use small ones:
 *   RATE_LIMIT_LOGIN_ACCOUNT  failed logins per IP + email per 15 minutes (default 5)
 *   RATE_LIMIT_LOGIN_IP       failed logins per IP per hour (default 20)
 *   RATE_LIMIT_REGISTER_IP    registration attempts per IP per hour (default 3)
 */
export interface AuthLimitSettings {
  loginAccount: number;
  loginIp: number;
  registerIp: number;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

const ENV_NAMES = {
  loginAccount: 'RATE_LIMIT_LOGIN_ACCOUNT',
  loginIp: 'RATE_LIMIT_LOGIN_IP',
  registerIp: 'RATE_LIMIT_REGISTER_IP',
} as const satisfies Record<keyof AuthLimitSettings, string>;

const DEFAULTS: AuthLimitSettings = { loginAccount: 5, loginIp: 20, registerIp: 3 };

/** Reads and checks the limits; throws on a value that is not a whole number from 1 to 1,000,000. */
export function readAuthLimitSettings(env: NodeJS.ProcessEnv = process.env): AuthLimitSettings {
  return {
    loginAccount: readLimitFromEnv(env, ENV_NAMES.loginAccount, DEFAULTS.loginAccount),
    loginIp: readLimitFromEnv(env, ENV_NAMES.loginIp, DEFAULTS.loginIp),
    registerIp: readLimitFromEnv(env, ENV_NAMES.registerIp, DEFAULTS.registerIp),
  };
}

export interface AuthLimiters {
  loginAccount: RateLimiter;
  loginIp: RateLimiter;
  registerIp: RateLimiter;
}

export function createAuthLimiters(settings: AuthLimitSettings, now?: () => number): AuthLimiters {
  const clock = now ? { now } : {};
  return {
    loginAccount: createRateLimiter({ limit: settings.loginAccount, windowMs: 15 * MINUTE, ...clock }),
    loginIp: createRateLimiter({ limit: settings.loginIp, windowMs: HOUR, ...clock }),
    registerIp: createRateLimiter({ limit: settings.registerIp, windowMs: HOUR, ...clock }),
  };
}

let shared: AuthLimiters | undefined;

/** The process's limiters, made on first use from the environment. */
export function getAuthLimiters(): AuthLimiters {
  shared ??= createAuthLimiters(readAuthLimitSettings());
  return shared;
}

export function tooManyAttempts(decision: RateLimitDecision, message: string): AppError {
  return new AppError('rate_limited', message, { headers: { 'Retry-After': String(retryAfterSeconds(decision)) } });
}

export function loginAccountKey(ip: string, email: string): string {
  return `${ip}\n${email.trim().toLowerCase()}`;
}
