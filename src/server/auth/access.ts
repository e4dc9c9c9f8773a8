/**
 * Who may call what, decided before any route runs (deny by default, docs/product.md#roles-and-access).
 * Every unsafe /api request needs an admin unless it is one of the few public writes below;
 * admin endpoints still call requireAdmin themselves, so forgetting either side stays safe.
 */

/** Unsafe /api requests anyone may make (docs/product.md#the-api). */
const PUBLIC_WRITES: ReadonlyArray<{ method: string; path: RegExp }> = [
  { method: 'POST', path: /^\/api\/users\/(register|login|logout|forgot-password|reset-password|confirm-email)$/ },
  // A reader's own account: every endpoint there calls requireSession and acts on that user only.
  { method: 'POST', path: /^\/api\/account\/(password|email|two-factor|two-factor\/confirm)$/ },
  { method: 'DELETE', path: /^\/api\/account(\/sessions\/[^/]+|\/two-factor)?$/ },
  { method: 'PUT', path: /^\/api\/blogs\/[^/]+\/click$/ },
  { method: 'POST', path: /^\/api\/blogs\/[^/]+\/comment$/ },
  // A reader's own library: the routes themselves require a signed-in user (401 otherwise).
  { method: 'PUT', path: /^\/api\/library\/(saved|progress)\/[^/]+$/ },
  { method: 'DELETE', path: /^\/api\/library\/saved\/[^/]+$/ },
  { method: 'POST', path: /^\/api\/library\/saved$/ },
  // The first-run setup: there is no admin yet; the setup token is the credential.
  { method: 'POST', path: /^\/api\/setup$/ },
];

/** Safe /api requests only admins may make: the comment list, article revisions and everything under /api/admin. */
const ADMIN_READS: readonly RegExp[] = [
  /^\/api\/blogs\/comment$/,
  /^\/api\/blogs\/[^/]+\/revisions(\/|$)/,
  /^\/api\/admin(\/|$)/,
];

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

// Decoded, lower case, single slashes and no trailing one, so /Admin/, //admin or /%61dmin cannot
// slip past a rule whatever the router makes of them.
function normalize(pathname: string): string {
  let decoded = pathname;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    // A malformed escape is matched as written.
  }
  const p = decoded.toLowerCase().replace(/\/{2,}/g, '/');
  return p.length > 1 ? p.replace(/\/+$/, '') || '/' : p;
}

export function isAdminPage(pathname: string): boolean {
  const p = normalize(pathname);
  return p === '/admin' || p.startsWith('/admin/');
}

export function isAdminApi(method: string, pathname: string): boolean {
  const p = normalize(pathname);
  if (p !== '/api' && !p.startsWith('/api/')) return false;
  const m = method.toUpperCase();
  if (SAFE.has(m)) return ADMIN_READS.some((re) => re.test(p));
  return !PUBLIC_WRITES.some((rule) => rule.method === m && rule.path.test(p));
}
