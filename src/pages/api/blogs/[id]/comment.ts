import { apiRoute, json, methodNotAllowed, readJsonObject } from '../../../../server/api/respond.ts';
import { requireBlogId } from '../../../../server/content/validation-public.ts';
import { postComment } from '../../../../server/content/comments.ts';
import { readClientIp } from '../../../../server/api/client-ip.ts';

// Room for a 5000-character comment even if every character arrives as a JSON \u escape.
const MAX_COMMENT_BODY_BYTES = 128 * 1024;

/** POST /api/blogs/:id/comment `{comment, username, contact}`: 201 with the comment and `live_ms`. */
export const POST = apiRoute(async (context) => {
  const blogId = requireBlogId(context.params.id);
  const body = await readJsonObject(context.request, MAX_COMMENT_BODY_BYTES);
  const app = context.locals.app;
  const comment = await postComment(app, { blogId, body, clientKey: readClientIp(context, app.config.trustProxy) });
  return json(comment, 201);
});

export const ALL = apiRoute(() => methodNotAllowed(['POST']));
