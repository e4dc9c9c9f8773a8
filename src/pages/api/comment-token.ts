import { json } from '../../server/api/respond.ts';
import { route } from '../../server/api/route.ts';
import { issueFormToken } from '../../server/content/spam-token.ts';

/**
 * GET /api/comment-token: `{token}`, the signed time the comment form was handed out. Asked for
 * by the comments island when it loads, never part of a stored page (json() sends no-store).
 */
export const { GET, ALL } = route({
  GET: async (context) => json({ token: await issueFormToken(context.locals.app.db) }),
});
