import { json } from '../../server/api/respond.ts';
import { route } from '../../server/api/route.ts';
import { issueFormToken } from '../../server/content/spam-token.ts';

/**
 * GET /api/comment-token: `{token, min_seconds, max_seconds}`, the signed time the comment form was
 * handed out and how long it may be used. Asked for by the comments island when it loads, never
 * part of a stored page (json() sends no-store).
 */
export const { GET, ALL } = route({
  GET: async (context) => {
    const { db, config } = context.locals.app;
    return json({
      token: await issueFormToken(db),
      min_seconds: config.commentMinFormSeconds,
      max_seconds: config.commentMaxFormSeconds,
    });
  },
});
