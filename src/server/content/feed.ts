import { escapeXml } from '../../shared/xml.ts';
import type { BlogSummary } from '../db/repositories/blogs.ts';
import { articleHref, SITE_FILES, SITE_PAGES } from '../../shared/site-map/paths.ts';

/**
 * The RSS 2.0 feed. Each item carries the article as readers get it in `content:encoded`
 * (formulas as MathML, code highlighted, footnotes numbered: render-article.ts), so a feed
 * reader shows formulas without any script; the plain-text excerpt stays the description.
 * Site-relative addresses become absolute, since a feed reader has no page to resolve them
 * against, and footnote anchors point into the article's page.
 */
export interface FeedItem extends BlogSummary {
  /** The rendered article body (HTML with MathML). */
  html: string;
}

export interface FeedChannel {
  origin: string;
  title: string;
  description: string;
  language: string;
}

const SITE_RELATIVE = /\b(href|src)="\/(?!\/)/g;
const FRAGMENT = /\bhref="#/g;

/** The body with addresses a feed reader can follow from anywhere. */
export function absoluteBody(html: string, origin: string, link: string): string {
  return html.replace(SITE_RELATIVE, `$1="${origin}/`).replace(FRAGMENT, `href="${link}#`);
}

function itemXml(item: FeedItem, origin: string): string {
  const link = origin + articleHref(item.id);
  return [
    '    <item>',
    `      <title>${escapeXml(item.title)}</title>`,
    `      <link>${escapeXml(link)}</link>`,
    `      <guid isPermaLink="true">${escapeXml(link)}</guid>`,
    `      <pubDate>${new Date(item.created_at).toUTCString()}</pubDate>`,
    `      <category>${escapeXml(item.category_name ?? 'General')}</category>`,
    `      <description>${escapeXml(item.excerpt)}</description>`,
    `      <content:encoded>${escapeXml(absoluteBody(item.html, origin, link))}</content:encoded>`,
    '    </item>',
  ].join('\n');
}

export function feedXml(channel: FeedChannel, items: FeedItem[]): string {
  const { origin } = channel;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:content="http://purl.org/rss/1.0/modules/content/">',
    '  <channel>',
    `    <title>${escapeXml(channel.title)}</title>`,
    `    <link>${escapeXml(origin + SITE_PAGES.home)}</link>`,
    `    <description>${escapeXml(channel.description)}</description>`,
    `    <language>${escapeXml(channel.language)}</language>`,
    `    <atom:link href="${escapeXml(origin + SITE_FILES.feed)}" rel="self" type="application/rss+xml" />`,
    ...(items[0] ? [`    <lastBuildDate>${new Date(items[0].created_at).toUTCString()}</lastBuildDate>`] : []),
    ...items.map((item) => itemXml(item, origin)),
    '  </channel>',
    '</rss>',
    '',
  ].join('\n');
}
