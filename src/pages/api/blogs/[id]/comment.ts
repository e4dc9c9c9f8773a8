import { json, readJsonObject } from '../../../../server/api/respond.ts';
import { route } from '../../../../server/api/route.ts';
import { requireId } from '../../../../server/api/ids.ts';
import { BODY_LIMITS } from '../../../../server/api/body-limits.ts';
import { readClientIp } from '../../../../server/api/client-ip.ts';
import { postComment } from '../../../../server/content/comments.ts';

/**
 * POST /api/blogs/:id/comment `{comment, username, contact}`: 201 with the comment and `live_ms`;
 * 202 `{status: "pending", message}` when a spam rule held it for moderation.
 */
export const { POST, ALL } = route({
  POST: async (context) => {
    const blogId = requireId(context.params.id, 'blog');
    const body = await readJsonObject(context.request, BODY_LIMITS.comment);
    const app = context.locals.app;
    const answer = await postComment(app, {
      blogId,
      body,
      clientKey: readClientIp(context, app.config.trustProxy),
      userId: context.locals.user?.id ?? null,
    });
    return 'status' in answer ? json(answer, 202) : json(answer, 201);
  },
});
