import type { Db } from '../db/client.ts';
import { notFound } from '../errors.ts';
import { incrementClicks } from '../db/repositories/blogs.ts';

/**
 * Opening an article raises its view count by one. No page-cache invalidation here: a view is not an edit,
 * and re-rendering pages on every visit would defeat the page store; the store refreshes the
 * top-viewed lists on its own timer instead.
 */
export async function recordClick(db: Db, blogId: number): Promise<void> {
  if (!(await incrementClicks(db, blogId))) throw notFound('That blog');
}
