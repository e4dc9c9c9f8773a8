import { sql } from 'kysely';
import type { Db } from '../client.ts';
import type { CommentStatus } from '../schema.ts';
import { preparedQuery } from './prepared-query.ts';

export type { CommentStatus };

export interface Comment {
  id: number;
  blog_id: number;
  username: string;
  comment: string;
  created_at: string;
}

export interface CommentWithBlogTitle extends Comment {
  blog_title: string;
}

export interface ModeratedComment extends CommentWithBlogTitle {
  status: CommentStatus;
  held_reason: string | null;
}

/** The comments readers see: approved ones only, oldest first. */
const approvedComments = preparedQuery({
  build: (db: Db, blogId: number) =>
    db
      .selectFrom('comments')
      .select(['id', 'blog_id', 'username', 'comment', 'created_at'])
      .where('blog_id', '=', blogId)
      .where('status', '=', 'approved')
      .orderBy('id'),
  parameters: (blogId) => [blogId, 'approved'],
});

export function listCommentsForBlog(db: Db, blogId: number): Promise<Comment[]> {
  return approvedComments(db, blogId);
}

// The admin lists' columns: each comment with its article's title, newest first.
const listedColumns = [
  'comments.id',
  'comments.blog_id',
  'comments.username',
  'comments.comment',
  'comments.created_at',
  'blogs.title as blog_title',
] as const;

function newestWithTitles(db: Db, options: { limit: number; offset: number }) {
  return db
    .selectFrom('comments')
    .innerJoin('blogs', 'blogs.id', 'comments.blog_id')
    .select(listedColumns)
    .orderBy('comments.id', 'desc')
    .limit(options.limit)
    .offset(options.offset);
}

export function listAllComments(db: Db, options: { limit: number; offset: number }): Promise<CommentWithBlogTitle[]> {
  return newestWithTitles(db, options).execute();
}

/** One moderation tab: the comments of one status with their article's title, newest first. */
export function listCommentsByStatus(
  db: Db,
  status: CommentStatus,
  options: { limit: number; offset: number },
): Promise<ModeratedComment[]> {
  return newestWithTitles(db, options)
    .select(['comments.status', 'comments.held_reason'])
    .where('comments.status', '=', status)
    .execute();
}

export function insertComment(
  db: Db,
  input: {
    blogId: number;
    username: string;
    comment: string;
    contact: string | null;
    status?: CommentStatus;
    heldReason?: string | null;
    textKey?: string | null;
    /** When it was written: now, unless it comes from an imported site. */
    createdAt?: string;
    /** The signed-in reader's account, if any. */
    userId?: number | null;
  },
): Promise<Comment> {
  return db
    .insertInto('comments')
    .values({
      blog_id: input.blogId,
      username: input.username,
      comment: input.comment,
      contact: input.contact,
      created_at: input.createdAt ?? new Date().toISOString(),
      status: input.status ?? 'approved',
      held_reason: input.heldReason ?? null,
      text_key: input.textKey ?? null,
      user_id: input.userId ?? null,
    })
    .returning(['id', 'blog_id', 'username', 'comment', 'created_at'])
    .executeTakeFirstOrThrow();
}

export function findComment(db: Db, id: number): Promise<Comment | undefined> {
  return db
    .selectFrom('comments')
    .select(['id', 'blog_id', 'username', 'comment', 'created_at'])
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The articles the given comments belong to (each once), for the pages to refresh. */
export async function findBlogIdsOfComments(db: Db, ids: readonly number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('comments').select('blog_id').distinct().where('id', 'in', ids).execute();
  return rows.map((row) => row.blog_id);
}

export async function setCommentStatus(db: Db, ids: readonly number[], status: CommentStatus): Promise<number> {
  if (ids.length === 0) return 0;
  // An approved comment no longer needs the reason it was once held; spam keeps it for the record.
  const values = status === 'approved' ? { status, held_reason: null } : { status };
  const result = await db.updateTable('comments').set(values).where('id', 'in', ids).executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function deleteComment(db: Db, id: number): Promise<boolean> {
  const result = await db.deleteFrom('comments').where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

export async function deleteComments(db: Db, ids: readonly number[]): Promise<number> {
  if (ids.length === 0) return 0;
  const result = await db.deleteFrom('comments').where('id', 'in', ids).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Comments whose article still exists (the admin list joins on the article). */
export async function countAllComments(db: Db): Promise<number> {
  const row = await db
    .selectFrom('comments')
    .innerJoin('blogs', 'blogs.id', 'comments.blog_id')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function countCommentsByStatus(db: Db, status: CommentStatus): Promise<number> {
  const row = await db
    .selectFrom('comments')
    .innerJoin('blogs', 'blogs.id', 'comments.blog_id')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('comments.status', '=', status)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** How many comments carried this normalised text since the given time, on any article. */
export async function countCommentsWithTextKey(db: Db, textKey: string, since: string): Promise<number> {
  const row = await db
    .selectFrom('comments')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('text_key', '=', textKey)
    .where('created_at', '>=', since)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export interface RecentCommentText {
  blog_id: number;
  comment: string;
  text_key: string | null;
  created_at: string;
}

/**
 * The newest `limit` comments, any status: where a repeat is looked for. The caller keeps the
 * recent ones; a time condition here would make SQLite walk the whole table when few are recent.
 */
export function listNewestCommentTexts(db: Db, limit: number): Promise<RecentCommentText[]> {
  return db
    .selectFrom('comments')
    .select(['blog_id', 'comment', 'text_key', 'created_at'])
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** Comments not shown to readers: held ones awaiting a moderator and those marked as spam. */
export async function countHeldComments(db: Db): Promise<number> {
  const row = await db
    .selectFrom('comments')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('status', 'in', ['pending', 'spam'])
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Deletes the `count` oldest comments not shown to readers: those marked as spam first, then
 * held ones. Approved comments are never among them.
 */
export async function deleteOldestHeldComments(db: Db, count: number): Promise<number> {
  if (count <= 0) return 0;
  const oldest = db
    .selectFrom('comments')
    .select('id')
    .where('status', 'in', ['pending', 'spam'])
    .orderBy(sql`status = 'spam'`, 'desc')
    .orderBy('id')
    .limit(count);
  const result = await db.deleteFrom('comments').where('id', 'in', oldest).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The articles whose comments an account wrote, before they are renamed or removed. */
export async function listBlogsCommentedBy(db: Db, userId: number): Promise<number[]> {
  const rows = await db.selectFrom('comments').select('blog_id').distinct().where('user_id', '=', userId).execute();
  return rows.map((row) => row.blog_id);
}

/** A deleted account's comments stay, under `name` and without the contact it left. */
export async function renameUserComments(db: Db, userId: number, name: string): Promise<void> {
  await db.updateTable('comments').set({ username: name, contact: null, user_id: null }).where('user_id', '=', userId).execute();
}

export async function deleteUserComments(db: Db, userId: number): Promise<void> {
  await db.deleteFrom('comments').where('user_id', '=', userId).execute();
}

/** Comments waiting for a moderator: how many, and how many (and the newest id) after `afterId`. */
export async function summarisePendingComments(
  db: Db,
  afterId: number,
): Promise<{ total: number; fresh: number; newestId: number }> {
  const row = await db
    .selectFrom('comments')
    .select((eb) => [
      eb.fn.countAll<number>().as('total'),
      eb.fn.sum<number>(eb.case().when('id', '>', afterId).then(1).else(0).end()).as('fresh'),
      eb.fn.max<number>('id').as('newest'),
    ])
    .where('status', '=', 'pending')
    .executeTakeFirstOrThrow();
  return { total: Number(row.total), fresh: Number(row.fresh ?? 0), newestId: Number(row.newest ?? 0) };
}
