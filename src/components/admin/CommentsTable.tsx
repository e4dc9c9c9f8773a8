import { formatDate } from '../../shared/dates.ts';
import type { CommentStatus, ModerationAction, ModerationCommentDto } from '../../shared/api-types.ts';
import { articleHref } from '../../shared/site-map/paths.ts';

/** The actions each tab offers: nothing moves a comment to the tab it is already in. */
export const ACTIONS_BY_STATUS: Record<CommentStatus, ReadonlyArray<{ action: ModerationAction; label: string }>> = {
  pending: [
    { action: 'approve', label: 'Approve' },
    { action: 'spam', label: 'Spam' },
    { action: 'delete', label: 'Delete' },
  ],
  approved: [
    { action: 'spam', label: 'Spam' },
    { action: 'delete', label: 'Delete' },
  ],
  spam: [
    { action: 'approve', label: 'Approve' },
    { action: 'delete', label: 'Delete' },
  ],
};

const ROW_LABEL: Record<ModerationAction, string> = { approve: 'Approve', spam: 'Mark as spam', delete: 'Delete' };

interface Props {
  status: CommentStatus;
  comments: ModerationCommentDto[];
  loading: boolean;
  ready: boolean;
  isSelected: (id: number) => boolean;
  allSelected: boolean;
  onToggle: (id: number) => void;
  onToggleAll: () => void;
  onAction: (comment: ModerationCommentDto, action: ModerationAction) => void;
  disabled: boolean;
}

/** One tab's comments with their article's title, newest first; a checkbox per row for bulk actions. */
export default function CommentsTable({
  status,
  comments,
  loading,
  ready,
  isSelected,
  allSelected,
  onToggle,
  onToggleAll,
  onAction,
  disabled,
}: Props) {
  const showReason = status !== 'approved';
  const columns = showReason ? 7 : 6;
  return (
    <div className="table-wrap">
      <table className="admin-table moderation-table" aria-busy={loading}>
        <thead>
          <tr>
            <th scope="col" className="select-cell">
              <input
                type="checkbox"
                aria-label="Select all comments on this page"
                checked={allSelected}
                disabled={comments.length === 0}
                onChange={onToggleAll}
              />
            </th>
            <th scope="col">Blog</th>
            <th scope="col">Name</th>
            <th scope="col">Comment</th>
            {showReason && <th scope="col">Reason</th>}
            <th scope="col">Date</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {comments.map((comment) => (
            <tr key={comment.id}>
              <td className="select-cell">
                <input
                  type="checkbox"
                  aria-label={`Select comment by ${comment.username}`}
                  checked={isSelected(comment.id)}
                  onChange={() => onToggle(comment.id)}
                />
              </td>
              <td>
                <a href={articleHref(comment.blog_id)}>{comment.blog_title ?? 'Untitled'}</a>
              </td>
              <td>{comment.username}</td>
              <td className="comment-text">{comment.comment}</td>
              {showReason && <td>{comment.held_reason ?? ''}</td>}
              <td className="nowrap">{formatDate(comment.created_at) ?? ''}</td>
              <td className="actions">
                {ACTIONS_BY_STATUS[status].map(({ action, label }) => (
                  <button
                    key={action}
                    type="button"
                    className={`btn btn-small${action === 'delete' ? ' btn-danger' : action === 'approve' ? ' btn-primary' : ''}`}
                    aria-label={`${ROW_LABEL[action]} comment by ${comment.username}`}
                    disabled={disabled}
                    onClick={() => onAction(comment, action)}
                  >
                    {label}
                  </button>
                ))}
              </td>
            </tr>
          ))}
          {ready && comments.length === 0 && (
            <tr>
              <td colSpan={columns}>{status === 'pending' ? 'No comments are waiting for approval.' : 'No comments here.'}</td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}
