import type { Db } from '../db/client.ts';
import { countBlogs } from '../db/repositories/blog-lists.ts';
import { hasCategories } from '../db/repositories/categories.ts';
import { findFirstAdmin } from '../db/repositories/users.ts';
import { seedDemoContent, type SeedResult } from './demo-content.ts';

/**
 * Fills a site that has neither articles nor categories with the demo content, written by the
 * first admin; a site with anything in it is left alone (null).
 */
export async function seedDemoIfEmpty(db: Db, uploadsDir: string): Promise<SeedResult | null> {
  if ((await countBlogs(db, {})) > 0 || (await hasCategories(db))) return null;
  const admin = await findFirstAdmin(db);
  return seedDemoContent(db, uploadsDir, admin?.username ?? 'admin');
}

export function describeSeed(result: SeedResult): string {
  return `Demo content: ${result.categories} categories, ${result.blogs} articles, ${result.comments} comments, ${result.slides} slides`;
}
