import { formatDate } from '../../shared/dates.ts';
import { deleteComment, listComments, messageOf } from '../../client/api.ts';
import type { AdminCommentDto } from '../../shared/api-types.ts';
import { Pager } from './Pager.tsx';
import { usePagedAdminList } from './use-admin-list.ts';
import { useConfirmDelete } from './use-confirm-delete.ts';

export const COMMENTS_MESSAGES = {
  loadFailed: 'Failed to fetch comments.',
  confirmDelete: 'Are you sure you want to delete this comment?',
  deleted: 'Comment deleted successfully',
  deleteFailed: 'Failed to delete the comment.',
} as const;

export const COMMENTS_PAGE_SIZE = 25;

/** Every comment with its blog's title, newest first, paged by the server; an admin may delete one. */
export default function CommentsTable() {
  const list = usePagedAdminList({
    pageSize: COMMENTS_PAGE_SIZE,
    load: (query, signal) => listComments(query, signal),
    loadFailed: COMMENTS_MESSAGES.loadFailed,
  });
  const { page, setPage, items: comments, total, pages, status } = list;
  const { deleting, onDelete } = useConfirmDelete<AdminCommentDto>({
    confirmText: COMMENTS_MESSAGES.confirmDelete,
    remove: (comment) => deleteComment(comment.id),
    onDeleted: (comment) => list.removeItem(comment.id),
    deletedText: COMMENTS_MESSAGES.deleted,
    failureText: (error) => messageOf(error, COMMENTS_MESSAGES.deleteFailed),
  });

  return (
    <section className="admin-card" aria-labelledby="comments-heading">
      <h2 id="comments-heading">Comments</h2>
      <p className="table-summary" role="status">
        {status === 'loading'
          ? 'Loading comments...'
          : status === 'ready'
            ? `${total} ${total === 1 ? 'comment' : 'comments'}`
            : ''}
      </p>
      <div className="table-wrap">
        <table className="admin-table" aria-busy={status === 'loading'}>
          <thead>
            <tr>
              <th scope="col">Blog</th>
              <th scope="col">Name</th>
              <th scope="col">Comment</th>
              <th scope="col">Date</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {comments.map((comment) => (
              <tr key={comment.id}>
                <td>
                  <a href={`/blog/${comment.blog_id}`}>{comment.blog_title ?? 'Untitled'}</a>
                </td>
                <td>{comment.username}</td>
                <td className="comment-text">{comment.comment}</td>
                <td className="nowrap">{formatDate(comment.created_at) ?? ''}</td>
                <td className="actions">
                  <button
                    type="button"
                    className="btn btn-small btn-danger"
                    aria-label={`Delete comment by ${comment.username}`}
                    disabled={deleting === comment.id}
                    onClick={() => void onDelete(comment)}
                  >
                    Delete
                  </button>
                </td>
              </tr>
            ))}
            {status === 'ready' && comments.length === 0 && (
              <tr>
                <td colSpan={5}>No comments yet.</td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
      <Pager page={page} pages={pages} onPage={setPage} label="Comment pages" />
    </section>
  );
}
