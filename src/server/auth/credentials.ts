import type { AstroCookies } from 'astro';
import type { Config } from '../config.ts';
import { readSessionCookie } from './cookies.ts';

/**
 * Where a request's session token comes from. An `Authorization: Bearer` header wins and the
 * cookie is then ignored: an API client gets exactly the session it named, and a Bearer request
 * cannot be a forgery riding on the browser's cookie.
 */
export type Credential = { source: 'bearer'; token: string } | { source: 'cookie'; token: string } | { source: 'none' };

const BEARER = /^Bearer(?:\s+(.*))?$/i;

export function readCredential(
  headers: Headers,
  cookies: Pick<AstroCookies, 'get'>,
  config: Pick<Config, 'publicOrigin' | 'production'>,
): Credential {
  const authorization = headers.get('authorization');
  const bearer = authorization ? BEARER.exec(authorization.trim()) : null;
  if (bearer) return { source: 'bearer', token: (bearer[1] ?? '').trim() };
  const cookie = readSessionCookie(cookies, config);
  return cookie ? { source: 'cookie', token: cookie } : { source: 'none' };
}
