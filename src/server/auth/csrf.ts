/**
 * CSRF for cookie sessions (docs/product.md#roles-and-access). A browser attaches the cookie to requests other
 * sites trigger, so an unsafe request riding on the cookie must prove it comes from our own pages:
 * `Sec-Fetch-Site: same-origin`, or an Origin equal to PUBLIC_ORIGIN. Never the origin the request
 * claims to be addressed to: its Host header is the client's to choose. Bearer requests never reach
 * this check: no browser adds that header by itself.
 */
export const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface CsrfInput {
  method: string;
  /** The Origin request header, if any. */
  origin: string | null;
  /** The Sec-Fetch-Site request header, if any. */
  secFetchSite: string | null;
  /** PUBLIC_ORIGIN, the one origin our own pages send. */
  publicOrigin: string;
}

export function isUnsafeMethod(method: string): boolean {
  return !SAFE_METHODS.has(method.toUpperCase());
}

export function isSameOriginRequest(input: CsrfInput): boolean {
  if (!isUnsafeMethod(input.method)) return true;
  const site = input.secFetchSite?.toLowerCase() ?? null;
  if (site === 'same-origin') return true;
  // A browser that says cross-site or same-site (a sibling subdomain) is believed over any Origin.
  if (site === 'cross-site' || site === 'same-site') return false;
  if (!input.origin || input.origin === 'null') return false;
  return input.origin === input.publicOrigin;
}
