import type { Db } from '../db/client.ts';
import { newestBlogIds, topViewedIds } from '../db/repositories/site-pages.ts';
import { HOME_PAGE_SIZE, LIST_PAGE_SIZE, TOP_VIEWED_LIMIT } from '../content/reader.ts';
import { hotUrlsFor } from './page-keys.ts';

/**
 * The pages to re-render before a change answers. hotUrlsFor() names every first page a tag can
 * reach; when the change is about one existing article, a first list page is only hot if the
 * article is on it (an edit of an old article leaves home page 1 as it is: it is re-rendered when
 * next asked for, like every other page carrying the tag).
 */
export async function hotUrlsForChange(db: Db, tags: string[]): Promise<string[]> {
  const urls = hotUrlsFor(tags);
  const blogTags = tags.filter((tag) => tag.startsWith('blog:'));
  const onlyArticleChange = blogTags.length === 1 && !tags.some((tag) => tag === 'nav' || tag === 'carousel');
  if (!onlyArticleChange) return urls;
  const blogId = Number(blogTags[0]!.slice('blog:'.length));
  const [newest, topViewed] = await Promise.all([newestBlogIds(db, HOME_PAGE_SIZE), topViewedIds(db, TOP_VIEWED_LIMIT)]);
  // A deleted article is in no list any more: every page it was on must be rebuilt now.
  const exists = (await db.selectFrom('blogs').select('id').where('id', '=', blogId).executeTakeFirst()) !== undefined;
  if (!exists) return urls;
  const kept: string[] = [];
  for (const url of urls) {
    if (url === '/') {
      if (newest.includes(blogId) || topViewed.includes(blogId)) kept.push(url);
    } else if (url === '/blogs') {
      if (newest.slice(0, LIST_PAGE_SIZE).includes(blogId)) kept.push(url);
    } else if (url.startsWith('/blogs?category=')) {
      const categoryId = Number(url.slice('/blogs?category='.length));
      if ((await newestBlogIds(db, LIST_PAGE_SIZE, categoryId)).includes(blogId)) kept.push(url);
    } else {
      kept.push(url);
    }
  }
  return kept;
}
