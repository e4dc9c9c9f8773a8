import type { APIRoute } from 'astro';
import { getSiteSettings } from '../server/content/site-settings.ts';
import { ICON_SIZES, iconUrl } from '../server/uploads/icons.ts';
import { cacheFor } from '../server/page-store/site-map.ts';
import { homeScreenName } from '../shared/validation/settings.ts';
import { languageDirection } from '../shared/site-language.ts';

/**
 * The web manifest: the site's name and colours, and the 192 and 512 px icons Android and
 * installed apps ask for (made from the uploaded site icon; the default icon is the SVG). With the
 * service worker (/sw.js) it makes the site an installable app.
 */
export const GET: APIRoute = async (context) => {
  context.cache.set(cacheFor.manifest());
  const settings = await getSiteSettings(context.locals.app);
  const base = settings.icon_base;
  const icons = base
    ? ICON_SIZES.filter((size) => size >= 192).map((size) => ({
        src: iconUrl(base, size),
        sizes: `${size}x${size}`,
        type: 'image/png',
      }))
    : [{ src: '/favicon.svg', sizes: 'any', type: 'image/svg+xml' }];
  const manifest = {
    name: settings.site_title,
    short_name: homeScreenName(settings),
    description: settings.meta_description,
    lang: settings.site_language,
    dir: languageDirection(settings.site_language),
    start_url: '/',
    scope: '/',
    // An app window once installed: browsers offer to install only standalone (or minimal-ui) apps.
    display: 'standalone',
    background_color: '#f8fafc',
    theme_color: settings.brand_color,
    icons,
  };
  return new Response(JSON.stringify(manifest, null, 2), {
    headers: { 'Content-Type': 'application/manifest+json; charset=utf-8' },
  });
};
