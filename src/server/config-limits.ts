import { readInt } from './config-read.ts';

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

export function readRateLimits(env: NodeJS.ProcessEnv): RateLimitSettings {
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
