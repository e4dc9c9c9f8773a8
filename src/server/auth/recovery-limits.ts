import type { RateLimitSettings } from '../config.ts';
import { createRateLimiter, type RateLimiter } from '../api/rate-limit.ts';
import type { HitStore } from '../hit-store.ts';
import { tooManyAttempts } from './limits.ts';

/**
 * Limits on "Forgot password?": per address (RATE_LIMIT_RESET_IP an hour) so one client cannot
 * mail-bomb many readers, and per email (RATE_LIMIT_RESET_EMAIL an hour) so no reader's inbox is
 * flooded from many addresses. Counted for every request, whether or not the email has an
 * account, so the limits tell nothing about which emails exist. Shared like the login limits.
 */
export interface RecoveryLimiters {
  resetIp: RateLimiter;
  resetEmail: RateLimiter;
}

const HOUR = 60 * 60_000;

export function createRecoveryLimiters(
  settings: Pick<RateLimitSettings, 'resetIp' | 'resetEmail'>,
  store?: HitStore,
  now?: () => number,
): RecoveryLimiters {
  const shared = (bucket: string) => (store ? { shared: { store, bucket } } : {});
  const clock = now ? { now } : {};
  return {
    resetIp: createRateLimiter({ limit: settings.resetIp, windowMs: HOUR, ...clock, ...shared('reset-ip') }),
    resetEmail: createRateLimiter({ limit: settings.resetEmail, windowMs: HOUR, ...clock, ...shared('reset-email') }),
  };
}

let madeForStore: HitStore | undefined;
let current: RecoveryLimiters | undefined;

export function getRecoveryLimiters(
  settings: Pick<RateLimitSettings, 'resetIp' | 'resetEmail'>,
  store?: HitStore,
): RecoveryLimiters {
  if (!current || madeForStore !== store) current = createRecoveryLimiters(settings, store);
  madeForStore = store;
  return current;
}

/** Counts one reset request; throws 429 when the address or the email has used up its hour. */
export function takeResetRequest(limiters: RecoveryLimiters, ip: string, email: string): void {
  const address = limiters.resetIp.take(ip);
  if (!address.allowed)
    throw tooManyAttempts(address, 'Too many password reset requests from this address. Please try again later.');
  const inbox = limiters.resetEmail.take(email.trim().toLowerCase());
  if (!inbox.allowed) {
    limiters.resetIp.refund(ip);
    throw tooManyAttempts(inbox, 'Too many password reset requests for this email. Please try again later.');
  }
}
