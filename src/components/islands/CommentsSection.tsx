import { useId, useState, type SubmitEvent } from 'react';
import { formatDate } from '../../shared/dates.ts';
import { hasErrors } from '../../shared/validation/common.ts';
import { COMMENT_LIMITS, COMMENT_MESSAGES, validateCommentInput } from '../../shared/validation/comment.ts';
import { useHydrated } from './use-hydrated.ts';
import { useCommentPost } from './use-comment-post.ts';
import type { CommentDto } from '../../shared/api-types.ts';

interface Props {
  blogId: number;
  initialComments: CommentDto[];
}

/** docs/product.md#validation-rules: the form keeps a contact value whose input is not shown; it starts non-blank. */
export const DEFAULT_CONTACT = 'not provided';

/**
 * The comments list and form. The list arrives rendered by the server; after a post the blog is
 * reloaded (docs/product.md#comments) so the reader sees the new comment. Unlike docs/product.md#messages (a
 * failed post only logged), the form says why a post did not go through (an alert) or that it is
 * held for approval (a status), and keeps the text so nothing typed is lost.
 */
export default function CommentsSection({ blogId, initialComments }: Props) {
  const id = useId();
  const hydrated = useHydrated();
  const { comments, busy, notice, setNotice, submit } = useCommentPost(blogId, initialComments);
  const [comment, setComment] = useState('');
  const [username, setUsername] = useState('');
  const [contact] = useState(DEFAULT_CONTACT);
  // Left empty by people (they never see it); a bot that fills every field gets held.
  const [subject, setSubject] = useState('');

  async function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    // The endpoint's own rules; with the inputs' length limits only a blank field can fail them.
    const { values, errors } = validateCommentInput({ comment, username, contact });
    if (hasErrors(errors)) {
      setNotice({ kind: 'error', text: COMMENT_MESSAGES.blank });
      return;
    }
    const taken = await submit({
      comment: values.comment,
      username: values.username,
      contact: values.contact ?? '',
      subject,
    });
    if (taken) {
      setComment('');
      setUsername('');
    }
  }

  const status = notice && notice.kind !== 'error' ? notice.text : '';

  return (
    <section className="article-section comments" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>{`Comments (${comments.length})`}</h2>
      {comments.length === 0 ? (
        <p className="comments-empty">No comments yet. Be the first to comment!</p>
      ) : (
        <ol className="comment-list">
          {comments.map((c) => (
            <li key={c.id} className="comment">
              <p className="comment-author" dir="auto">
                {c.username}
                {formatDate(c.created_at) && (
                  <span className="meta comment-date">
                    <time dateTime={c.created_at}>{formatDate(c.created_at)}</time>
                  </span>
                )}
              </p>
              <p className="comment-text" dir="auto">
                {c.comment}
              </p>
            </li>
          ))}
        </ol>
      )}
      <h3>Leave a comment</h3>
      <form className="comment-form" onSubmit={onSubmit}>
        {notice?.kind === 'error' && (
          <p className="form-error" role="alert">
            {notice.text}
          </p>
        )}
        <div className="form-field">
          <label htmlFor={`${id}-comment`}>Comment</label>
          <textarea
            id={`${id}-comment`}
            name="comment"
            dir="auto"
            rows={4}
            maxLength={COMMENT_LIMITS.comment}
            required
            value={comment}
            onChange={(event) => setComment(event.target.value)}
          />
        </div>
        <div className="form-field">
          <label htmlFor={`${id}-name`}>Name</label>
          <input
            id={`${id}-name`}
            name="username"
            dir="auto"
            type="text"
            autoComplete="name"
            maxLength={COMMENT_LIMITS.username}
            required
            value={username}
            onChange={(event) => setUsername(event.target.value)}
          />
        </div>
        <div className="comment-extra" aria-hidden="true">
          <label htmlFor={`${id}-subject`}>Leave this field empty</label>
          <input
            id={`${id}-subject`}
            name="subject"
            type="text"
            tabIndex={-1}
            autoComplete="off"
            value={subject}
            onChange={(event) => setSubject(event.target.value)}
          />
        </div>
        {/* Until the island runs there is nothing to send the comment with. */}
        <button type="submit" className="button" disabled={!hydrated || busy}>
          {busy ? 'Posting...' : 'Post Comment'}
        </button>
        <p className={status ? `comment-notice comment-notice-${notice?.kind}` : 'visually-hidden'} role="status">
          {status}
        </p>
      </form>
    </section>
  );
}
