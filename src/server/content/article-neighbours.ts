import type { Db } from '../db/client.ts';
import type { Blog } from '../db/repositories/blogs.ts';
import { findAdjacentBlogs } from '../db/repositories/blog-side-lists.ts';
import { blogIsPublic } from '../db/repositories/visibility.ts';
import { tag, type PageTag } from '../page-store/site-tags.ts';

type Placed = Pick<Blog, 'id' | 'status' | 'publish_at' | 'category_id' | 'created_at'>;

/**
 * An article that joins the lists (created, published, moved to another category) becomes the
 * Older or Newer link of the articles on either side of it, in the site and in its category:
 * their pages' `neighbours` tags go stale, and refresh in the background. An article that leaves
 * needs nothing here: the pages linking to it carry its `link:ID`, which its write bumps.
 */
export async function neighbourTagsForChanges(
  db: Db,
  changes: readonly { before: Placed | null; after: Placed | null }[],
  now = new Date().toISOString(),
): Promise<PageTag[]> {
  const tags: PageTag[] = [];
  for (const { before, after } of changes) {
    if (!after || !blogIsPublic(after, now)) continue;
    const joined = !before || !blogIsPublic(before, now) || before.created_at !== after.created_at;
    const scopes: Array<number | null> = [];
    if (joined) scopes.push(null);
    if (after.category_id !== null && (joined || before?.category_id !== after.category_id)) scopes.push(after.category_id);
    for (const categoryId of scopes) {
      const { older, newer } = await findAdjacentBlogs(db, after, categoryId, now);
      for (const side of [older, newer]) if (side) tags.push(tag.neighbours(side.id));
    }
  }
  return tags;
}
