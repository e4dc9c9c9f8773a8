import type { AppContext } from '../context.ts';
import type { Db } from '../db/client.ts';
import {
  countAllComments,
  countCommentsByStatus,
  deleteComment,
  deleteComments,
  findBlogIdsOfComments,
  findComment,
  listAllComments,
  listCommentsByStatus,
  setCommentStatus,
} from '../db/repositories/comments.ts';
import { invalidInput, notFound, throwIfInvalid } from '../errors.ts';
import { tag, type PageTag } from '../page-store/site-tags.ts';
import { HELD_REASON_LABELS, type HeldReason } from './spam-rules.ts';
import { isCommentStatus, validateModerationInput } from '../../shared/validation/moderation.ts';
import type {
  AdminCommentDto,
  CommentStatus,
  DeletedAnswer,
  ModerationAnswer,
  ModerationCommentDto,
} from '../../shared/api-types.ts';

/** The admin's view of comments: all of them with their article's title, newest first, in pages. */

export const COMMENT_LIST_DEFAULT_LIMIT = 100;
export const COMMENT_LIST_MAX_LIMIT = 500;

export async function listCommentsForAdmin(
  db: Db,
  page: { limit: number; offset: number },
): Promise<{ items: AdminCommentDto[]; total: number }> {
  const [items, total] = await Promise.all([listAllComments(db, page), countAllComments(db)]);
  return { items, total };
}

/** GET /api/blogs/comment?status=: null without one (the plain list of every comment); 400 for an unknown one. */
export function parseStatusQuery(params: URLSearchParams): CommentStatus | null {
  const raw = params.get('status');
  if (raw === null || raw === '') return null;
  if (!isCommentStatus(raw)) throw invalidInput('status must be pending, approved or spam.', { status: 'Unknown status.' });
  return raw;
}

/** One moderation tab, with the reason a rule held each comment in words. */
export async function listCommentsForModeration(
  db: Db,
  status: CommentStatus,
  page: { limit: number; offset: number },
): Promise<{ items: ModerationCommentDto[]; total: number; pending: number }> {
  const [rows, total, pending] = await Promise.all([
    listCommentsByStatus(db, status, page),
    countCommentsByStatus(db, status),
    countPendingComments(db),
  ]);
  const items = rows.map((row) => ({
    ...row,
    held_reason: row.held_reason ? (HELD_REASON_LABELS[row.held_reason as HeldReason] ?? row.held_reason) : null,
  }));
  return { items, total, pending };
}

/** The number the admin side menu shows beside Comments. */
export function countPendingComments(db: Db): Promise<number> {
  return countCommentsByStatus(db, 'pending');
}

export async function deleteCommentById(app: AppContext, id: number): Promise<DeletedAnswer> {
  const startedAt = performance.now();
  const blogId = await app.db.transaction().execute(async (trx) => {
    const comment = await findComment(trx, id);
    if (!comment) throw notFound('That comment');
    await deleteComment(trx, id);
    return comment.blog_id;
  });
  // A take-down: the article's page is never answered with the comment once this answers.
  const { live_ms } = await app.pageCache.invalidate([], startedAt, [tag.comments(blogId)]);
  return { message: 'Comment deleted successfully', live_ms };
}

const DONE: Record<'approve' | 'spam' | 'delete', (n: number) => string> = {
  approve: (n) => `${n} ${n === 1 ? 'comment' : 'comments'} approved`,
  spam: (n) => `${n} ${n === 1 ? 'comment' : 'comments'} marked as spam`,
  delete: (n) => `${n} ${n === 1 ? 'comment' : 'comments'} deleted`,
};

/**
 * Approve, mark as spam or delete comments, one or many. Each can change what an article shows,
 * so the articles involved are fresh when this answers. Ids that no longer exist are skipped
 * (another admin got there first); if none exists it is a 404.
 */
export async function moderateComments(app: AppContext, body: Record<string, unknown>): Promise<ModerationAnswer> {
  const startedAt = performance.now();
  const { ids, action } = throwIfInvalid(validateModerationInput(body), 'Please choose comments and an action.');
  const { blogIds, changed } = await app.db.transaction().execute(async (trx) => {
    const blogIds = await findBlogIdsOfComments(trx, ids);
    if (blogIds.length === 0) throw notFound('Those comments');
    const changed =
      action === 'delete'
        ? await deleteComments(trx, ids)
        : await setCommentStatus(trx, ids, action === 'approve' ? 'approved' : 'spam');
    return { blogIds, changed };
  });
  const tags: PageTag[] = blogIds.map((id) => tag.comments(id));
  // Approving shows a comment (its page may be answered stale while refreshed); spam and delete
  // take one down: its article's page is never answered with it once this answers.
  const { live_ms } =
    action === 'approve' ? await app.pageCache.invalidate(tags, startedAt) : await app.pageCache.invalidate([], startedAt, tags);
  return { message: DONE[action](changed), changed, pending: await countPendingComments(app.db), live_ms };
}
