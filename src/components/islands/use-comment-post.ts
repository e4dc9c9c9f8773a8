import { useEffect, useRef, useState } from 'react';
import { ApiError, getBlog, getCommentFormToken, isHeldComment, postComment } from '../../client/api.ts';
import { COMMENT_MESSAGES } from '../../shared/validation/comment.ts';
import type { CommentDto, CommentFormToken } from '../../shared/api-types.ts';

/** A form token and when this page received it. */
interface HeldToken {
  answer: CommentFormToken;
  receivedAt: number;
}

/** A token is renewed this long before the server would call it expired (clocks and slow posts). */
const RENEW_MARGIN_MS = 5 * 60_000;

function fetchToken(signal?: AbortSignal): Promise<HeldToken | null> {
  return getCommentFormToken(signal)
    .then((answer) => (typeof answer.token === 'string' ? { answer, receivedAt: Date.now() } : null))
    .catch(() => null);
}

/**
 * The token to post with. A form left open longer than a token lives (a tab kept for days) gets a
 * new one and waits out its minimum time, rather than sending one the server would hold.
 */
async function usableToken(held: HeldToken | null): Promise<string | null> {
  if (!held) return null;
  const { answer, receivedAt } = held;
  const maxMs = (Number(answer.max_seconds) || Infinity) * 1000;
  if (Date.now() - receivedAt < maxMs - RENEW_MARGIN_MS) return answer.token;
  const renewed = await fetchToken();
  if (!renewed) return answer.token;
  const minMs = (Number(renewed.answer.min_seconds) || 0) * 1000;
  await new Promise((resolve) => setTimeout(resolve, minMs));
  return renewed.answer.token;
}

/** What the form tells the visitor: a status (posted, held) or an alert (refused, failed). */
export type CommentNotice = { kind: 'posted' | 'held' | 'error'; text: string } | null;

/** Why a post did not go through, in the visitor's words: the limit's wait, the field's rule, else a retry. */
export function describeCommentFailure(error: unknown): string {
  if (!(error instanceof ApiError)) return COMMENT_MESSAGES.failed;
  if (error.status === 429 && error.statedMessage) return error.statedMessage;
  if (error.status === 400) {
    const fields = Object.values(error.fields);
    if (fields.length > 0) return fields.join(' ');
    if (error.statedMessage) return error.statedMessage;
  }
  return COMMENT_MESSAGES.failed;
}

/**
 * Posting a comment: the form's timing token is fetched when the island loads (never part of the
 * stored page, which all readers share), and a post waits for it, since a comment without one is
 * held for moderation; a failure to get one means posting without it (and being held). A clean
 * comment appears after the blog is reloaded (docs/product.md#comments); a held one is announced.
 */
export function useCommentPost(blogId: number, initialComments: CommentDto[]) {
  const [comments, setComments] = useState(initialComments);
  const formToken = useRef<Promise<HeldToken | null>>(Promise.resolve(null));
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<CommentNotice>(null);

  useEffect(() => {
    const controller = new AbortController();
    formToken.current = fetchToken(controller.signal);
    return () => controller.abort();
  }, []);

  /**
   * Answers true when the server took the comment, published or held for approval: the form then
   * clears (a held comment left in the form invites posting it twice).
   */
  async function submit(body: { comment: string; username: string; contact: string; subject: string }): Promise<boolean> {
    setNotice(null);
    setBusy(true);
    try {
      const token = await usableToken(await formToken.current);
      const answer = await postComment(blogId, { ...body, ...(token ? { form_token: token } : {}) });
      if (isHeldComment(answer)) {
        setNotice({ kind: 'held', text: answer.message || COMMENT_MESSAGES.held });
        return true;
      }
    } catch (error) {
      console.error('Could not post the comment', error);
      setNotice({ kind: 'error', text: describeCommentFailure(error) });
      return false;
    } finally {
      setBusy(false);
    }
    setNotice({ kind: 'posted', text: COMMENT_MESSAGES.posted });
    setBusy(true);
    try {
      const blog = await getBlog(blogId);
      setComments(Array.isArray(blog.comments) ? blog.comments : []);
    } catch (error) {
      console.error('Could not reload the comments', error);
    } finally {
      setBusy(false);
    }
    return true;
  }

  return { comments, busy, notice, setNotice, submit };
}
