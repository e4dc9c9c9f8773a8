import type { AppContext } from '../context.ts';
import { AppError, notFound, throwIfInvalid } from '../errors.ts';
import { findPublicBlogById } from '../db/repositories/blogs.ts';
import { insertComment, type Comment } from '../db/repositories/comments.ts';
import { tag } from '../page-store/site-tags.ts';
import { createRateLimiter, retryAfterSeconds, type RateLimiter } from '../api/rate-limit.ts';
import { COMMENT_MESSAGES, validateCommentInput } from '../../shared/validation/comment.ts';
import type { HeldComment, PostedComment } from '../../shared/api-types.ts';
import { judgeComment, pruneHeldComments } from './spam.ts';

/** docs/product.md#abuse-limits: comments, 5 per 10 minutes per client address (RATE_LIMIT_COMMENT_IP). */
export const COMMENT_RATE_LIMIT = { limit: 5, windowMs: 10 * 60 * 1000 } as const;

// One limiter per server process, made on first use; only Astro's bundle loads this module.
// Counted in the shared hit store when the front server installed one (every process counts alike).
let sharedLimiter: RateLimiter | undefined;
let limiterStore: AppContext['hits'];
function getCommentLimiter(app: AppContext): RateLimiter {
  if (!sharedLimiter || limiterStore !== app.hits) {
    sharedLimiter = createRateLimiter({
      limit: app.config.rateLimits.commentIp,
      windowMs: COMMENT_RATE_LIMIT.windowMs,
      shared: app.hits && { store: app.hits, bucket: 'comment-ip' },
    });
    limiterStore = app.hits;
  }
  return sharedLimiter;
}

export type { HeldComment, PostedComment };

export const HELD_MESSAGE = COMMENT_MESSAGES.held;

export interface PostCommentRequest {
  blogId: number;
  body: Record<string, unknown>;
  /** Whom the rate limit counts against: the client's address. */
  clientKey: string;
  /** The signed-in reader's account, kept so deleting it can rename or remove its comments. */
  userId?: number | null;
}

/**
 * A visitor's comment: validated (400), the blog must exist (404), then counted against the
 * client's limit (429; invalid or misdirected posts cost nothing), stored as plain text, and the
 * pages showing it are refreshed once the insert has committed. A comment that trips a spam rule
 * (spam.ts) is stored as pending instead: no page changes and the answer says it is held.
 */
export async function postComment(
  app: AppContext,
  request: PostCommentRequest,
  limiter: RateLimiter = getCommentLimiter(app),
): Promise<PostedComment | HeldComment> {
  const startedAt = performance.now();
  const input = throwIfInvalid(validateCommentInput(request.body), COMMENT_MESSAGES.invalid);
  const saved = await app.db.transaction().execute(async (trx) => {
    // An unpublished article takes no comments: for readers it does not exist.
    if (!(await findPublicBlogById(trx, request.blogId))) throw notFound('That blog');
    const decision = limiter.take(`comment:${request.clientKey}`);
    if (!decision.allowed) {
      const seconds = retryAfterSeconds(decision);
      throw new AppError('rate_limited', `Too many comments from your address. Please try again in ${describeWait(seconds)}.`, {
        headers: { 'Retry-After': String(seconds) },
      });
    }
    const verdict = await judgeComment(
      trx,
      { blogId: request.blogId, values: input, body: request.body },
      {
        minFormSeconds: app.config.commentMinFormSeconds,
        maxFormSeconds: app.config.commentMaxFormSeconds,
        requireFormToken: app.config.commentRequireFormToken,
      },
    );
    const comment = await insertComment(trx, {
      blogId: request.blogId,
      username: input.username,
      comment: input.comment,
      contact: input.contact,
      status: verdict.heldReason ? 'pending' : 'approved',
      heldReason: verdict.heldReason,
      textKey: verdict.textKey,
      userId: request.userId ?? null,
    });
    if (verdict.heldReason) await pruneHeldComments(trx, app.config.commentHeldMax);
    return { comment, held: verdict.heldReason !== null };
  });
  if (saved.held) {
    // The admins' digest (if the owner wants one) is checked now rather than at the next minute.
    app.moderationDigest?.wake();
    return { status: 'pending', message: HELD_MESSAGE };
  }
  return publishComment(app, saved.comment, startedAt);
}

async function publishComment(app: AppContext, saved: Comment, startedAt: number): Promise<PostedComment> {
  const { live_ms } = await app.pageCache.invalidate([tag.comments(saved.blog_id)], startedAt);
  return { id: saved.id, username: saved.username, comment: saved.comment, created_at: saved.created_at, live_ms };
}

function describeWait(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}
