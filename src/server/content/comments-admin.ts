import type { AppContext } from '../context.ts';
import type { Db } from '../db/client.ts';
import { countAllComments, deleteComment, findComment, listAllComments } from '../db/repositories/comments.ts';
import { notFound } from '../errors.ts';
import { tag } from '../page-store/site-tags.ts';
import type { AdminCommentDto, DeletedAnswer } from '../../shared/api-types.ts';

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

export async function deleteCommentById(app: AppContext, id: number): Promise<DeletedAnswer> {
  const startedAt = performance.now();
  const blogId = await app.db.transaction().execute(async (trx) => {
    const comment = await findComment(trx, id);
    if (!comment) throw notFound('That comment');
    await deleteComment(trx, id);
    return comment.blog_id;
  });
  const { live_ms } = await app.pageCache.invalidate([tag.comments(blogId)], startedAt);
  return { message: 'Comment deleted successfully', live_ms };
}
