import type { APIRoute } from 'astro';
import { cacheFor } from '../server/page-store/site-map.ts';
import { SITE_FILES } from '../shared/site-map/paths.ts';

/** Crawlers may read the public site, not the admin area or the API. */
export const GET: APIRoute = (context) => {
  // The page store keeps only tagged answers; this one changes with nothing but a new build.
  context.cache.set(cacheFor.navOnly());
  const origin = context.locals.app.config.publicOrigin;
  const body = [
    'User-agent: *',
    'Allow: /',
    'Disallow: /admin',
    'Disallow: /api/',
    '',
    `Sitemap: ${origin}${SITE_FILES.sitemap}`,
    '',
  ].join('\n');
  return new Response(body, { headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
};
