import type { IncomingMessage } from 'node:http';
import type { APIContext } from 'astro';
import { warnOnceForSite } from '../log-once.ts';

/**
 * The address rate limits are keyed on. Behind a reverse proxy (TRUST_PROXY=true) it is the last
 * X-Forwarded-For entry, the one our own proxy appended; earlier entries are whatever the client
 * sent and could be forged to dodge a limit.
 */
export function readClientIp(
  context: Pick<APIContext, 'request' | 'clientAddress'>,
  trustProxy: boolean,
  warn: (line: string) => void = warnOnceForSite,
): string {
  return pickClientIp(context.request.headers.get('x-forwarded-for'), () => context.clientAddress, trustProxy, warn);
}

/**
 * The same address for a request the front server answers itself (a search page): Astro's node
 * adapter takes the socket's address, as here (the site sets no allowed domains, so Astro never
 * reads X-Forwarded-For itself).
 */
export function readNodeClientIp(
  req: IncomingMessage,
  trustProxy: boolean,
  warn: (line: string) => void = warnOnceForSite,
): string {
  const forwarded = req.headers['x-forwarded-for'];
  return pickClientIp(
    Array.isArray(forwarded) ? forwarded.join(', ') : (forwarded ?? null),
    () => req.socket.remoteAddress,
    trustProxy,
    warn,
  );
}

function pickClientIp(
  forwarded: string | null,
  address: () => string | undefined,
  trustProxy: boolean,
  warn: (line: string) => void,
): string {
  if (trustProxy) {
    const last = forwarded
      ?.split(',')
      .map((part) => part.trim())
      .filter(Boolean)
      .pop();
    if (last) return last;
  } else if (forwarded) {
    warnForwardedOnce(warn);
  }
  try {
    return address() || 'unknown';
  } catch {
    // Astro throws when the adapter could not tell the address.
    return 'unknown';
  }
}

export const FORWARDED_WARNING =
  '[security] Requests arrive with X-Forwarded-For but TRUST_PROXY is off: if a reverse proxy sits in front, every ' +
  'reader shares its address, so login, sign-up, comment and view-count limits hit all of them at once. Set ' +
  'TRUST_PROXY=true when your own proxy sets that header (README "Deploying"); leave it off when clients reach the ' +
  'server directly. (Logged once.)';

let warned = false;

/** A proxy in front without TRUST_PROXY is a set-up mistake worth one loud line, not one per request. */
function warnForwardedOnce(warn: (line: string) => void): void {
  if (warned) return;
  warned = true;
  warn(FORWARDED_WARNING);
}
