import type { Db } from '../client.ts';
import type { CategoryRow } from '../schema.ts';
import { cachedRead } from '../read-cache.ts';
import { isPublicBlog } from './visibility.ts';

export type Category = Pick<CategoryRow, 'id' | 'name' | 'sequence'>;

export function listCategories(db: Db): Promise<Category[]> {
  return db.selectFrom('categories').select(['id', 'name', 'sequence']).orderBy('sequence').orderBy('id').execute();
}

/**
 * Every category, read once per database state (`../read-cache.ts`): every page of a render
 * shows them, and a rename's background refresh asks each patched page's category name.
 */
export function listCategoriesCached(db: Db): Promise<Category[]> {
  return cachedRead(db, 'categories', () => listCategories(db));
}

/** The categories that hold at least one article readers can see, in the nav's order. */
export function listPublicCategories(db: Db, now = new Date().toISOString()): Promise<Category[]> {
  return db
    .selectFrom('categories')
    .select(['id', 'name', 'sequence'])
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('blogs')
          .select('blogs.id')
          .whereRef('blogs.category_id', '=', 'categories.id')
          .where(isPublicBlog('blogs', now)),
      ),
    )
    .orderBy('sequence')
    .orderBy('id')
    .execute();
}

/** How many articles readers can see in a category. */
export async function countPublicBlogsInCategory(db: Db, id: number, now = new Date().toISOString()): Promise<number> {
  const row = await db
    .selectFrom('blogs')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('category_id', '=', id)
    .where(isPublicBlog('blogs', now))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export function findCategoryById(db: Db, id: number): Promise<Category | undefined> {
  return db.selectFrom('categories').select(['id', 'name', 'sequence']).where('id', '=', id).executeTakeFirst();
}

export function findCategoryByName(db: Db, name: string): Promise<Category | undefined> {
  // The column is declared `collate nocase`, so this comparison ignores case.
  return db.selectFrom('categories').select(['id', 'name', 'sequence']).where('name', '=', name).executeTakeFirst();
}

export async function insertCategory(db: Db, input: { name: string; sequence: number }): Promise<Category> {
  return db
    .insertInto('categories')
    .values({ name: input.name, sequence: input.sequence, created_at: new Date().toISOString() })
    .returning(['id', 'name', 'sequence'])
    .executeTakeFirstOrThrow();
}

export function updateCategory(db: Db, id: number, input: { name: string; sequence: number }): Promise<Category | undefined> {
  return db
    .updateTable('categories')
    .set({ name: input.name, sequence: input.sequence })
    .where('id', '=', id)
    .returning(['id', 'name', 'sequence'])
    .executeTakeFirst();
}

export async function deleteCategory(db: Db, id: number): Promise<boolean> {
  const result = await db.deleteFrom('categories').where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

export async function hasCategories(db: Db): Promise<boolean> {
  return (await db.selectFrom('categories').select('id').executeTakeFirst()) !== undefined;
}
