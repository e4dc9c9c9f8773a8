import type { Db } from '../client.ts';

/** The old site's addresses answering with a 301 to an article (migration 0012). */

/** Points each path at the article; a path another import already took moves to this one. */
export async function saveRedirects(
  db: Db,
  blogId: number,
  paths: readonly string[],
  now = new Date().toISOString(),
): Promise<void> {
  for (const path of paths) {
    await db
      .insertInto('redirects')
      .values({ path, blog_id: blogId, created_at: now })
      .onConflict((oc) => oc.column('path').doUpdateSet({ blog_id: blogId }))
      .execute();
  }
}

export async function findRedirect(db: Db, path: string): Promise<number | undefined> {
  const row = await db.selectFrom('redirects').select('blog_id').where('path', '=', path).executeTakeFirst();
  return row?.blog_id;
}

export async function countRedirects(db: Db): Promise<number> {
  const row = await db
    .selectFrom('redirects')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
