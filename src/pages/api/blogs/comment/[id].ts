import { json } from '../../../../server/api/respond.ts';
import { route } from '../../../../server/api/route.ts';
import { requireId } from '../../../../server/api/ids.ts';
import { requireAdmin } from '../../../../server/auth/guard.ts';
import { deleteCommentById } from '../../../../server/content/comments-admin.ts';

/** DELETE /api/blogs/comment/:id (admin): 200 {message, live_ms}; the article page updates. */
export const { DELETE, ALL } = route({
  DELETE: async (context) => {
    requireAdmin(context);
    return json(await deleteCommentById(context.locals.app, requireId(context.params.id, 'comment')));
  },
});
