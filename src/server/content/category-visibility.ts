import type { Db } from '../db/client.ts';
import type { Blog } from '../db/repositories/blogs.ts';
import { countPublicBlogsInCategory } from '../db/repositories/categories.ts';
import { blogIsPublic } from '../db/repositories/visibility.ts';
import { tag, type PageTag } from '../page-store/site-tags.ts';

type Visible = Pick<Blog, 'status' | 'publish_at' | 'category_id'>;

/**
 * The nav and footer offer only categories with an article readers can see, so a write that gives
 * an empty category its first public article, or takes the last one away, changes every page's
 * nav. Counted after the writes committed: a category gained `n` and now holds `n`, so it was
 * empty; or it lost some and holds none. Any other write leaves the nav alone (a full refresh of
 * the site is not spent on an ordinary publish).
 */
export async function navTagsForCategoryChanges(
  db: Db,
  changes: readonly { before: Visible | null; after: Visible | null }[],
  now = new Date().toISOString(),
): Promise<PageTag[]> {
  const net = new Map<number, number>();
  for (const { before, after } of changes) {
    const from = before && blogIsPublic(before, now) ? before.category_id : null;
    const to = after && blogIsPublic(after, now) ? after.category_id : null;
    if (from === to) continue;
    if (from !== null) net.set(from, (net.get(from) ?? 0) - 1);
    if (to !== null) net.set(to, (net.get(to) ?? 0) + 1);
  }
  for (const [categoryId, gained] of net) {
    if (gained === 0) continue;
    const count = await countPublicBlogsInCategory(db, categoryId, now);
    if ((gained > 0 && count === gained) || (gained < 0 && count === 0)) return [tag.nav];
  }
  return [];
}
