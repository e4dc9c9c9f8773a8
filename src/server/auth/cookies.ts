import type { AstroCookies, AstroCookieSetOptions } from 'astro';
import type { Config } from '../config.ts';
import { DEFAULT_SESSION_POLICY } from './sessions.ts';

/**
 * The session cookie. On https the `__Host-` prefix makes the browser insist on Secure, Path=/
 * and no Domain, so a sibling subdomain cannot plant or overwrite it. Max-Age is the absolute
 * lifetime: the server ends idle sessions itself, so the cookie never needs re-sending.
 */
type CookieConfig = Pick<Config, 'publicOrigin' | 'production'>;

export function isHttpsOrigin(config: CookieConfig): boolean {
  return config.publicOrigin.startsWith('https:');
}

export function sessionCookieName(config: CookieConfig): string {
  return isHttpsOrigin(config) ? '__Host-session' : 'session';
}

export function sessionCookieOptions(config: CookieConfig): AstroCookieSetOptions {
  return {
    httpOnly: true,
    secure: config.production || isHttpsOrigin(config),
    sameSite: 'lax',
    path: '/',
    maxAge: Math.floor(DEFAULT_SESSION_POLICY.absoluteMs / 1000),
  };
}

export function readSessionCookie(cookies: Pick<AstroCookies, 'get'>, config: CookieConfig): string | null {
  return cookies.get(sessionCookieName(config))?.value || null;
}

export function setSessionCookie(cookies: Pick<AstroCookies, 'set'>, config: CookieConfig, token: string): void {
  cookies.set(sessionCookieName(config), token, sessionCookieOptions(config));
}

export function clearSessionCookie(cookies: Pick<AstroCookies, 'set'>, config: CookieConfig): void {
  // An empty value with Max-Age=0 and the same attributes, so every browser drops the same cookie.
  cookies.set(sessionCookieName(config), '', { ...sessionCookieOptions(config), maxAge: 0 });
}
