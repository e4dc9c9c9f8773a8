import { json } from '../../../../server/api/respond.ts';
import { route } from '../../../../server/api/route.ts';
import { requireAdmin } from '../../../../server/auth/guard.ts';
import { listCommentsForAdmin } from '../../../../server/content/comments-admin.ts';
import { parseCommentListQuery } from '../../../../server/content/list-queries.ts';

/**
 * GET /api/blogs/comment?limit=&offset= (admin): comments with `blog_title`, newest first.
 * X-Total-Count carries the number of all comments. (A static segment, so it wins over /api/blogs/[id].)
 */
export const { GET, ALL } = route(
  {
    GET: async (context) => {
      requireAdmin(context);
      const { items, total } = await listCommentsForAdmin(context.locals.app.db, parseCommentListQuery(context.url.searchParams));
      return json(items, 200, { 'X-Total-Count': String(total) });
    },
  },
  { head: false },
);
