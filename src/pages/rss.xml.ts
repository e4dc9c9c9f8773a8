import type { APIRoute } from 'astro';
import { getFeed } from '../server/content/reader.ts';
import { feedXml } from '../server/content/feed.ts';
import { getSiteSettings } from '../server/content/site-settings.ts';
import { cacheFor } from '../server/page-store/site-map.ts';

/** RSS 2.0 feed of the newest articles, each with its full rendered text (src/server/content/feed.ts). */
export const GET: APIRoute = async (context) => {
  const items = await getFeed(context.locals.app.db);
  const settings = await getSiteSettings(context.locals.app);
  context.cache.set(cacheFor.feed(items));
  const body = feedXml(
    {
      origin: context.locals.app.config.publicOrigin,
      title: settings.site_title,
      description: settings.meta_description,
      language: settings.site_language,
    },
    items,
  );
  return new Response(body, { headers: { 'Content-Type': 'application/rss+xml; charset=utf-8' } });
};
