import type { AppContext } from '../context.ts';
import {
  deleteCategory,
  findCategoryById,
  findCategoryByName,
  insertCategory,
  updateCategory,
  type Category,
} from '../db/repositories/categories.ts';
import { AppError, notFound, throwIfInvalid } from '../errors.ts';
import { tag } from '../page-store/site-tags.ts';
import { CATEGORY_MESSAGES, validateCategoryInput, type CategoryValues } from '../../shared/validation/category.ts';
import type { DeletedAnswer, SavedCategory } from '../../shared/api-types.ts';

/**
 * Category writes. Names are unique ignoring case (the column is `collate nocase`); a clash is a
 * 409 with the message of docs/product.md#messages. Every page shows the categories in its nav and
 * footer, so each change carries the nav tag. A new category also changes the lists; a rename or
 * a new place in the order changes only the name where pages show it (`category-name:ID`: its
 * articles' pages, the cards naming it, its own list), so every other page keeps its text and gets
 * the new nav without a render (page-store/chrome-patch.ts), and those naming it get the new name
 * written where they show the old one (page-store/category-name-patch.ts).
 */

export type CategoryAnswer = SavedCategory;

const DUPLICATE_UPDATE_MESSAGE = 'Failed to update category. Another category already has that name.';

function validated(body: Record<string, unknown>): CategoryValues {
  return throwIfInvalid(validateCategoryInput(body));
}

function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'SQLITE_CONSTRAINT_UNIQUE';
}

const tagsFor = (id: number) => [tag.nav, tag.list, tag.category(id)];
const renameTags = (id: number) => [tag.nav, tag.categoryName(id)];

export async function createCategory(app: AppContext, body: Record<string, unknown>): Promise<CategoryAnswer> {
  const startedAt = performance.now();
  const values = validated(body);
  let category: Category;
  try {
    category = await app.db.transaction().execute(async (trx) => {
      if (await findCategoryByName(trx, values.name)) throw new AppError('conflict', CATEGORY_MESSAGES.createFailed);
      return insertCategory(trx, values);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('conflict', CATEGORY_MESSAGES.createFailed);
    throw error;
  }
  const { live_ms, refresh } = await app.pageCache.invalidate(tagsFor(category.id), startedAt);
  return { ...category, live_ms, refresh };
}

export async function updateCategoryById(app: AppContext, id: number, body: Record<string, unknown>): Promise<CategoryAnswer> {
  const startedAt = performance.now();
  const values = validated(body);
  let category: Category;
  let formerName: string;
  try {
    [category, formerName] = await app.db.transaction().execute(async (trx) => {
      const former = await findCategoryById(trx, id);
      if (!former) throw notFound('That category');
      const sameName = await findCategoryByName(trx, values.name);
      if (sameName && sameName.id !== id) throw new AppError('conflict', DUPLICATE_UPDATE_MESSAGE);
      return [(await updateCategory(trx, id, values))!, former.name] as const;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('conflict', DUPLICATE_UPDATE_MESSAGE);
    throw error;
  }
  // The pages naming it are mended with the new name where they show the old one (page-store/category-name-patch.ts).
  const { live_ms, refresh } = await app.pageCache.invalidate(
    renameTags(id),
    startedAt,
    [],
    [[tag.categoryName(id), formerName]],
  );
  return { ...category, live_ms, refresh };
}

/** Its articles stay and show as General (the foreign key sets their category to null). */
export async function deleteCategoryById(app: AppContext, id: number): Promise<DeletedAnswer> {
  const startedAt = performance.now();
  const deleted = await deleteCategory(app.db, id);
  if (!deleted) throw notFound('That category');
  // Its own pages are taken down (never answered stale once this answers); its articles' pages and
  // cards now say General; the nav of every other page is refreshed as for a rename.
  const { live_ms, refresh } = await app.pageCache.invalidate([...renameTags(id), tag.list], startedAt, [tag.category(id)]);
  return { message: 'Category deleted successfully', live_ms, refresh };
}
