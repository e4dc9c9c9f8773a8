import { useEffect, useState } from 'react';
import { formatDate } from '../../shared/dates.ts';
import { showError, showSuccess } from '../../stores/admin.ts';
import { deleteComment, listComments, messageOf } from '../../client/api.ts';
import type { AdminCommentDto } from '../../shared/api-types.ts';
import { Pager } from './Pager.tsx';

export const COMMENTS_MESSAGES = {
  loadFailed: 'Failed to fetch comments.',
  confirmDelete: 'Are you sure you want to delete this comment?',
  deleted: 'Comment deleted successfully',
  deleteFailed: 'Failed to delete the comment.',
} as const;

export const COMMENTS_PAGE_SIZE = 25;

/** Every comment with its blog's title, newest first, paged by the server; an admin may delete one. */
export default function CommentsTable() {
  const [page, setPage] = useState(1);
  const [result, setResult] = useState<{ key: string; ok: boolean; items: AdminCommentDto[]; total: number } | null>(null);
  const [reload, setReload] = useState(0);
  const [deleting, setDeleting] = useState<number | null>(null);

  const requestKey = `${page}|${reload}`;
  useEffect(() => {
    const controller = new AbortController();
    listComments({ limit: COMMENTS_PAGE_SIZE, offset: (page - 1) * COMMENTS_PAGE_SIZE }, controller.signal)
      .then(({ items, total }) => {
        const lastPage = Math.max(1, Math.ceil(total / COMMENTS_PAGE_SIZE));
        if (items.length === 0 && page > lastPage) setPage(lastPage);
        else setResult({ key: requestKey, ok: true, items, total });
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        console.error(error);
        setResult({ key: requestKey, ok: false, items: [], total: 0 });
        showError(COMMENTS_MESSAGES.loadFailed);
      });
    return () => controller.abort();
  }, [page, requestKey]);

  const status = result?.key !== requestKey ? 'loading' : result.ok ? 'ready' : 'failed';
  const comments = result?.items ?? [];
  const total = result?.total ?? 0;

  const onDelete = async (comment: AdminCommentDto) => {
    if (!window.confirm(COMMENTS_MESSAGES.confirmDelete)) return;
    setDeleting(comment.id);
    try {
      const answer = await deleteComment(comment.id);
      showSuccess(answer.message || COMMENTS_MESSAGES.deleted, answer.live_ms ?? null);
      setResult((previous) => previous && { ...previous, items: previous.items.filter((row) => row.id !== comment.id) });
      setReload((n) => n + 1);
    } catch (error) {
      console.error(error);
      showError(messageOf(error, COMMENTS_MESSAGES.deleteFailed));
    } finally {
      setDeleting(null);
    }
  };

  const pages = Math.max(1, Math.ceil(total / COMMENTS_PAGE_SIZE));

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
