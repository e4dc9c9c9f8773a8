import type { Db } from '../client.ts';
import type { CommentStatus } from '../schema.ts';
import { isPublicBlog } from './visibility.ts';

/** A saved article as the library lists it: enough to show it and to keep it offline. */
export interface SavedArticleRow {
  id: number;
  title: string;
  category_name: string | null;
  image: string | null;
  pdf_drive_link: string | null;
  updated_at: string;
  saved_at: string;
}

export interface RecentReadRow {
  id: number;
  title: string;
  position: number;
  read_at: string;
}

export interface OwnCommentRow {
  id: number;
  blog_id: number;
  blog_title: string;
  comment: string;
  status: CommentStatus;
  created_at: string;
}

/**
 * A reader's saved articles that readers may see, newest save first. An article that went back
 * to draft stays saved (the row is kept) but is not listed until it is public again.
 */
export function listSavedArticles(db: Db, userId: number): Promise<SavedArticleRow[]> {
  return db
    .selectFrom('saved_articles')
    .innerJoin('blogs', 'blogs.id', 'saved_articles.blog_id')
    .leftJoin('categories', 'categories.id', 'blogs.category_id')
    .select([
      'blogs.id',
      'blogs.title',
      'categories.name as category_name',
      'blogs.image',
      'blogs.pdf_drive_link',
      'blogs.updated_at',
      'saved_articles.saved_at',
    ])
    .where('saved_articles.user_id', '=', userId)
    .where(isPublicBlog())
    .orderBy('saved_articles.saved_at', 'desc')
    .orderBy('blogs.id', 'desc')
    .execute();
}

export async function countSavedArticles(db: Db, userId: number): Promise<number> {
  const row = await db
    .selectFrom('saved_articles')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Which of `blogIds` the reader has saved already. */
export async function findSavedIds(db: Db, userId: number, blogIds: readonly number[]): Promise<Set<number>> {
  if (blogIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('saved_articles')
    .select('blog_id')
    .where('user_id', '=', userId)
    .where('blog_id', 'in', blogIds)
    .execute();
  return new Set(rows.map((row) => row.blog_id));
}

/** Saves each article once; saving one already saved keeps its first date. */
export async function insertSavedArticles(db: Db, userId: number, blogIds: readonly number[], now: string): Promise<void> {
  if (blogIds.length === 0) return;
  await db
    .insertInto('saved_articles')
    .values(blogIds.map((blogId) => ({ user_id: userId, blog_id: blogId, saved_at: now })))
    .onConflict((oc) => oc.columns(['user_id', 'blog_id']).doNothing())
    .execute();
}

export async function deleteSavedArticle(db: Db, userId: number, blogId: number): Promise<boolean> {
  const result = await db
    .deleteFrom('saved_articles')
    .where('user_id', '=', userId)
    .where('blog_id', '=', blogId)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** Where the reader stopped in an article, as of `now`. */
export async function upsertReadingProgress(
  db: Db,
  progress: { userId: number; blogId: number; position: number; now: string },
): Promise<void> {
  await db
    .insertInto('reading_progress')
    .values({ user_id: progress.userId, blog_id: progress.blogId, position: progress.position, read_at: progress.now })
    .onConflict((oc) => oc.columns(['user_id', 'blog_id']).doUpdateSet({ position: progress.position, read_at: progress.now }))
    .execute();
}

/** The articles the reader read most recently (public ones), with where they stopped. */
export function listRecentReads(db: Db, userId: number, limit: number): Promise<RecentReadRow[]> {
  return db
    .selectFrom('reading_progress')
    .innerJoin('blogs', 'blogs.id', 'reading_progress.blog_id')
    .select(['blogs.id', 'blogs.title', 'reading_progress.position', 'reading_progress.read_at'])
    .where('reading_progress.user_id', '=', userId)
    .where(isPublicBlog())
    .orderBy('reading_progress.read_at', 'desc')
    .limit(limit)
    .execute();
}

/** Keeps the reader's `keep` most recent reads and drops the older ones. */
export async function pruneReadingProgress(db: Db, userId: number, keep: number): Promise<void> {
  await db
    .deleteFrom('reading_progress')
    .where('user_id', '=', userId)
    .where('blog_id', 'not in', (eb) =>
      eb.selectFrom('reading_progress').select('blog_id').where('user_id', '=', userId).orderBy('read_at', 'desc').limit(keep),
    )
    .execute();
}

/** The reader's own comments, newest first, in every status, with their article's title. */
export function listOwnComments(db: Db, userId: number, limit: number): Promise<OwnCommentRow[]> {
  return db
    .selectFrom('comments')
    .innerJoin('blogs', 'blogs.id', 'comments.blog_id')
    .select([
      'comments.id',
      'comments.blog_id',
      'blogs.title as blog_title',
      'comments.comment',
      'comments.status',
      'comments.created_at',
    ])
    .where('comments.user_id', '=', userId)
    .orderBy('comments.id', 'desc')
    .limit(limit)
    .execute();
}
