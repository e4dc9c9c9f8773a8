import { useId, useState, type SubmitEvent } from 'react';
import { formatDate } from '../../shared/dates.ts';
import { hasErrors } from '../../shared/validation/common.ts';
import { COMMENT_LIMITS, validateCommentInput } from '../../shared/validation/comment.ts';
import { useHydrated } from './use-hydrated.ts';
import { getBlog, postComment } from '../../client/api.ts';
import type { CommentDto } from '../../shared/api-types.ts';

interface Props {
  blogId: number;
  initialComments: CommentDto[];
}

/** SPEC.md section 5: the form keeps a contact value whose input is not shown; it starts non-blank. */
export const DEFAULT_CONTACT = 'not provided';

/**
 * The comments list and form. The list arrives rendered by the server; after a post the blog is
 * reloaded (SPEC.md section 4) so the reader sees the new comment. A failed post is only logged
 * (SPEC.md section 8) and the text stays in the form so nothing typed is lost.
 */
export default function CommentsSection({ blogId, initialComments }: Props) {
  const id = useId();
  const hydrated = useHydrated();
  const [comments, setComments] = useState(initialComments);
  const [comment, setComment] = useState('');
  const [username, setUsername] = useState('');
  const [contact] = useState(DEFAULT_CONTACT);
  const [busy, setBusy] = useState(false);
  const [blankError, setBlankError] = useState(false);
  const [posted, setPosted] = useState(false);

  async function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    // The endpoint's own rules; with the inputs' length limits only a blank field can fail them.
    const { values, errors } = validateCommentInput({ comment, username, contact });
    if (hasErrors(errors)) {
      setBlankError(true);
      return;
    }
    setBlankError(false);
    setPosted(false);
    setBusy(true);
    try {
      await postComment(blogId, { comment: values.comment, username: values.username, contact: values.contact ?? '' });
      setComment('');
      setUsername('');
      setPosted(true);
    } catch (error) {
      console.error('Could not post the comment', error);
      setBusy(false);
      return;
    }
    try {
      const blog = await getBlog(blogId);
      setComments(Array.isArray(blog.comments) ? blog.comments : []);
    } catch (error) {
      console.error('Could not reload the comments', error);
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="article-section comments" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>{`Comments (${comments.length})`}</h2>
      {comments.length === 0 ? (
        <p className="comments-empty">No comments yet. Be the first to comment!</p>
      ) : (
        <ol className="comment-list">
          {comments.map((c) => (
            <li key={c.id} className="comment">
              <p className="comment-author">
                {c.username}
                {formatDate(c.created_at) && (
                  <span className="meta comment-date">
                    <time dateTime={c.created_at}>{formatDate(c.created_at)}</time>
                  </span>
                )}
              </p>
              <p className="comment-text">{c.comment}</p>
            </li>
          ))}
        </ol>
      )}
      <h3>Leave a comment</h3>
      <form className="comment-form" onSubmit={onSubmit}>
        {blankError && (
          <p className="form-error" role="alert">
            Please write a comment and your name.
          </p>
        )}
        <div className="form-field">
          <label htmlFor={`${id}-comment`}>Comment</label>
          <textarea
            id={`${id}-comment`}
            name="comment"
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
            type="text"
            autoComplete="name"
            maxLength={COMMENT_LIMITS.username}
            required
            value={username}
            onChange={(event) => setUsername(event.target.value)}
          />
        </div>
        {/* Until the island runs there is nothing to send the comment with. */}
        <button type="submit" className="button" disabled={!hydrated || busy}>
          {busy ? 'Posting...' : 'Post Comment'}
        </button>
        <p className="visually-hidden" role="status">
          {posted ? 'Your comment was posted.' : ''}
        </p>
      </form>
    </section>
  );
}
