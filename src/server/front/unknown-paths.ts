import fs from 'node:fs';

/**
 * Which requests no route of the site claims, told from the path's first segment alone, so the
 * front server answers them the stored 404 page (`not-found-responder.ts`) instead of Astro
 * building one per request: a flood of made-up addresses took most of a serving thread.
 *
 * Only a first segment that no Astro route, no file of the build and no front-server path starts
 * with is claimed; anything under a known one (`/blog/abc`, `/api/nope`, `/admin/x`) still goes
 * to Astro, which answers it exactly (a JSON 404 under /api, a redirect for /admin). An odd
 * segment (percent-escapes, `.` or `..`) goes to Astro too, which may read it as another path.
 */

/**
 * The first path segments of `src/pages` (`''`: the home page) and of Astro's own routes. The
 * only other root route is the catch-all `[...path]`, whose answer for these paths is the 404
 * page. `unknown-paths.test.ts` checks this list against `src/pages`.
 */
export const ROUTE_ROOTS = [
  '',
  '404',
  'about',
  'account',
  'admin',
  'api',
  'blog',
  'blogs',
  'confirm-email',
  'contact',
  'download',
  'forgot-password',
  'library',
  'login',
  'logout',
  'manifest.webmanifest',
  'offline',
  'register',
  'reset-password',
  'robots.txt',
  'rss.xml',
  'setup',
  'sitemap.xml',
  '_image',
  '_server-islands',
  '_actions',
] as const;

/** What the front server answers itself before Astro (`listener.ts`). */
const FRONT_SERVER_ROOTS = ['_astro', 'uploads', 'healthz'];

/** A segment these rules can read as it is: no escapes, nothing a URL parser would rewrite. */
const PLAIN_SEGMENT = /^[\w.~-]+$/;

/** `clientDir`: the build's public files (favicon, icons), served from the top of the site. */
export function createUnknownPathCheck(clientDir: string): (url: string) => boolean {
  // In lower case: the access rules read /ADMIN as /admin (a redirect to the login), so any
  // spelling of a known segment is left to Astro.
  const known = new Set<string>(
    [...ROUTE_ROOTS, ...FRONT_SERVER_ROOTS, ...listNames(clientDir)].map((name) => name.toLowerCase()),
  );
  /** `url`: the request target, starting with `/`. */
  return (url) => {
    let end = 1;
    while (end < url.length) {
      const code = url.charCodeAt(end);
      if (code === 47 || code === 63 || code === 35) break; // '/', '?', '#'
      end++;
    }
    const root = url.slice(1, end);
    return !known.has(root.toLowerCase()) && root !== '.' && root !== '..' && PLAIN_SEGMENT.test(root);
  };
}

function listNames(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
}
