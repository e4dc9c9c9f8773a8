import type { Db } from '../db/client.ts';
import { listSitePageFacts } from '../db/repositories/site-pages.ts';
import { HOME_PAGE_SIZE, LIST_PAGE_SIZE } from '../content/reader.ts';

function pagesOf(count: number, size: number): number {
  return Math.max(1, Math.ceil(count / size));
}

function paged(base: string, pages: number, extra = ''): string[] {
  const urls: string[] = [];
  for (let page = 1; page <= pages; page++) {
    const query = [extra, page > 1 ? `page=${page}` : ''].filter(Boolean).join('&');
    urls.push(query ? `${base}?${query}` : base);
  }
  return urls;
}

/** Every public page of the site, most visited first, as page-store keys. */
export async function listPublicUrls(db: Db): Promise<string[]> {
  const { blogIds, perCategory } = await listSitePageFacts(db);
  const total = blogIds.length;
  return [
    '/',
    '/blogs',
    '/download',
    '/about',
    '/contact',
    ...perCategory.map((c) => `/blogs?category=${c.id}`),
    ...[...blogIds].reverse().map((id) => `/blog/${id}`),
    ...paged('/', pagesOf(total, HOME_PAGE_SIZE)).slice(1),
    ...paged('/blogs', pagesOf(total, LIST_PAGE_SIZE)).slice(1),
    ...perCategory.flatMap((c) => paged('/blogs', pagesOf(c.blogs, LIST_PAGE_SIZE), `category=${c.id}`).slice(1)),
    '/sitemap.xml',
    '/rss.xml',
    '/robots.txt',
  ];
}
