import type { APIContext } from 'astro';

/**
 * The address rate limits are keyed on. Behind a reverse proxy (TRUST_PROXY=true) it is the last
 * X-Forwarded-For entry, the one our own proxy appended; earlier entries are whatever the client
 * sent and could be forged to dodge a limit.
 */
export function readClientIp(context: Pick<APIContext, 'request' | 'clientAddress'>, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = context.request.headers.get('x-forwarded-for');
    const last = forwarded
      ?.split(',')
      .map((part) => part.trim())
      .filter(Boolean)
      .pop();
    if (last) return last;
  }
  try {
    return context.clientAddress || 'unknown';
  } catch {
    // Astro throws when the adapter could not tell the address.
    return 'unknown';
  }
}
