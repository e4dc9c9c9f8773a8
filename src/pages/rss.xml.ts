import type { APIRoute } from 'astro';
import { getFeed } from '../server/content/reader.ts';
import { getSiteSettings } from '../server/content/site-settings.ts';
import { escapeXml } from '../components/site/xml.ts';
import { cacheFor } from '../server/page-store/site-map.ts';

/** RSS 2.0 feed of the newest articles. */
export const GET: APIRoute = async (context) => {
  const origin = context.locals.app.config.publicOrigin;
  const blogs = await getFeed(context.locals.app.db);
  const settings = await getSiteSettings(context.locals.app);
  context.cache.set(cacheFor.feed(blogs.map((blog) => blog.id)));
  const items = blogs.map((blog) => {
    const link = `${origin}/blog/${blog.id}`;
    return [
      '    <item>',
      `      <title>${escapeXml(blog.title)}</title>`,
      `      <link>${escapeXml(link)}</link>`,
      `      <guid isPermaLink="true">${escapeXml(link)}</guid>`,
      `      <pubDate>${new Date(blog.created_at).toUTCString()}</pubDate>`,
      `      <category>${escapeXml(blog.category_name ?? 'General')}</category>`,
      `      <description>${escapeXml(blog.excerpt)}</description>`,
      '    </item>',
    ].join('\n');
  });
  const body = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">',
    '  <channel>',
    `    <title>${escapeXml(settings.site_title)}</title>`,
    `    <link>${escapeXml(origin + '/')}</link>`,
    `    <description>${escapeXml(settings.meta_description)}</description>`,
    `    <language>${escapeXml(settings.site_language)}</language>`,
    `    <atom:link href="${escapeXml(origin + '/rss.xml')}" rel="self" type="application/rss+xml" />`,
    ...(blogs[0] ? [`    <lastBuildDate>${new Date(blogs[0].created_at).toUTCString()}</lastBuildDate>`] : []),
    ...items,
    '  </channel>',
    '</rss>',
    '',
  ].join('\n');
  return new Response(body, { headers: { 'Content-Type': 'application/rss+xml; charset=utf-8' } });
};
