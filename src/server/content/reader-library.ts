import type { AppContext } from '../context.ts';
import type { Db } from '../db/client.ts';
import { AppError, notFound, throwIfInvalid } from '../errors.ts';
import { findPublicBlogById } from '../db/repositories/blogs.ts';
import {
  countSavedArticles,
  deleteSavedArticle,
  findSavedIds,
  insertSavedArticles,
  listOwnComments,
  listRecentReads,
  listSavedArticles,
  pruneReadingProgress,
  upsertReadingProgress,
  type SavedArticleRow,
} from '../db/repositories/reader-library.ts';
import { LIBRARY_LIMITS, LIBRARY_MESSAGES, validateProgressInput, validateSyncInput } from '../../shared/validation/library.ts';
import type { LibraryAnswer, LibrarySyncAnswer, SavedArticleDto } from '../../shared/api-types.ts';

/**
 * A reader's library: saved articles, recent reads with where they stopped, their own comments.
 * Only articles readers may see can be saved or read; each account sees only its own rows (every
 * call takes the signed-in user's id, never one from the request).
 */

const toSavedDto = (row: SavedArticleRow): SavedArticleDto => ({
  id: row.id,
  title: row.title,
  category_name: row.category_name,
  image: row.image,
  pdf_link: row.pdf_drive_link?.trim() || null,
  updated_at: row.updated_at,
  saved_at: row.saved_at,
});

export async function getLibrary(app: AppContext, userId: number): Promise<LibraryAnswer> {
  const [saved, recent, comments] = await Promise.all([
    listSavedArticles(app.db, userId),
    listRecentReads(app.db, userId, LIBRARY_LIMITS.recent),
    listOwnComments(app.db, userId, LIBRARY_LIMITS.comments),
  ]);
  return { saved: saved.map(toSavedDto), recent, comments };
}

async function requirePublicArticle(db: Db, blogId: number): Promise<void> {
  if (!(await findPublicBlogById(db, blogId))) throw notFound('That article');
}

const libraryFull = () => new AppError('library_full', LIBRARY_MESSAGES.full);

/** Saves one article (404 unknown or unpublished, 409 library full); saving it again changes nothing. */
export async function saveArticle(app: AppContext, userId: number, blogId: number): Promise<SavedArticleDto> {
  return app.db.transaction().execute(async (trx) => {
    await requirePublicArticle(trx, blogId);
    const already = await findSavedIds(trx, userId, [blogId]);
    if (already.size === 0) {
      if ((await countSavedArticles(trx, userId)) >= LIBRARY_LIMITS.saved) throw libraryFull();
      await insertSavedArticles(trx, userId, [blogId], new Date().toISOString());
    }
    const saved = (await listSavedArticles(trx, userId)).find((row) => row.id === blogId);
    if (!saved) throw notFound('That article');
    return toSavedDto(saved);
  });
}

/** Takes an article out of the library; one that was not in it is no error (the tap is repeated). */
export async function removeArticle(app: AppContext, userId: number, blogId: number): Promise<void> {
  await deleteSavedArticle(app.db, userId, blogId);
}

/**
 * Merges the articles a device saved before its reader signed in. Ids no reader can open (deleted
 * or unpublished since) are skipped and named; if the rest would overfill the library nothing is
 * saved (409), so the device keeps its list and the reader can choose.
 */
export async function syncSavedArticles(
  app: AppContext,
  userId: number,
  body: Record<string, unknown>,
): Promise<LibrarySyncAnswer> {
  const { ids } = throwIfInvalid(validateSyncInput(body));
  return app.db.transaction().execute(async (trx) => {
    const skipped: number[] = [];
    const open: number[] = [];
    for (const id of ids) ((await findPublicBlogById(trx, id)) ? open : skipped).push(id);
    const already = await findSavedIds(trx, userId, open);
    const fresh = open.filter((id) => !already.has(id));
    if ((await countSavedArticles(trx, userId)) + fresh.length > LIBRARY_LIMITS.saved) throw libraryFull();
    await insertSavedArticles(trx, userId, fresh, new Date().toISOString());
    return { saved: (await listSavedArticles(trx, userId)).map(toSavedDto), skipped };
  });
}

/** Where the reader stopped in an article (400 bad position, 404 unknown article); keeps the latest few. */
export async function recordReadingProgress(
  app: AppContext,
  userId: number,
  blogId: number,
  body: Record<string, unknown>,
): Promise<void> {
  const { position } = throwIfInvalid(validateProgressInput(body));
  await app.db.transaction().execute(async (trx) => {
    await requirePublicArticle(trx, blogId);
    await upsertReadingProgress(trx, { userId, blogId, position, now: new Date().toISOString() });
    await pruneReadingProgress(trx, userId, LIBRARY_LIMITS.recent);
  });
}
