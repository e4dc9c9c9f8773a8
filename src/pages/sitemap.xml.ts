import type { APIRoute } from 'astro';
import { getSitemapEntries } from '../server/content/reader.ts';
import { escapeXml } from '../shared/xml.ts';
import { cacheFor } from '../server/page-store/site-map.ts';
import { articleHref, categoryHref, SITE_PAGES } from '../shared/site-map/paths.ts';

/** Every indexable page: the fixed pages, each category's list and each article. */
export const GET: APIRoute = async (context) => {
  context.cache.set(cacheFor.sitemap());
  const origin = context.locals.app.config.publicOrigin;
  const { blogs, categories } = await getSitemapEntries(context.locals.app.db);
  const url = (path: string, lastmod?: string) =>
    `  <url><loc>${escapeXml(origin + path)}</loc>${lastmod ? `<lastmod>${escapeXml(lastmod)}</lastmod>` : ''}</url>`;
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    url(SITE_PAGES.home),
    url(SITE_PAGES.blogs),
    url(SITE_PAGES.download),
    url(SITE_PAGES.about),
    url(SITE_PAGES.contact),
    ...categories.map((category) => url(categoryHref(category.id))),
    ...blogs.map((blog) => url(articleHref(blog.id), blog.updated_at)),
    '</urlset>',
    '',
  ];
  return new Response(lines.join('\n'), { headers: { 'Content-Type': 'application/xml; charset=utf-8' } });
};
