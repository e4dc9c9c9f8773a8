import { apiRoute, json, methodNotAllowed } from '../../../../server/api/respond.ts';
import { requireAdmin } from '../../../../server/auth/guard.ts';
import { invalidInput } from '../../../../server/errors.ts';
import { deleteCommentById } from '../../../../server/content/comments-admin.ts';
import { parseId } from '../../../../shared/ids.ts';

/** DELETE /api/blogs/comment/:id (admin): 200 {message, live_ms}; the article page updates. */
export const DELETE = apiRoute(async (context) => {
  requireAdmin(context);
  const id = parseId(context.params.id);
  if (id === null) throw invalidInput('The comment id must be a positive whole number.');
  return json(await deleteCommentById(context.locals.app, id));
});

export const ALL = apiRoute(() => methodNotAllowed(['DELETE']));
