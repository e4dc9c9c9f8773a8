import { json } from '../../../../server/api/respond.ts';
import { route } from '../../../../server/api/route.ts';
import { requireAdmin } from '../../../../server/auth/guard.ts';
import { listCommentsForAdmin, listCommentsForModeration, parseStatusQuery } from '../../../../server/content/comments-admin.ts';
import { parseCommentListQuery } from '../../../../server/content/list-queries.ts';

/**
 * GET /api/blogs/comment?limit=&offset= (admin): comments with `blog_title`, newest first.
 * X-Total-Count carries the number of all comments. With `status=pending|approved|spam` it is one
 * moderation tab: the rows add `status` and `held_reason`, and X-Pending-Count the pending total.
 * (A static segment, so it wins over /api/blogs/[id].)
 */
export const { GET, ALL } = route(
  {
    GET: async (context) => {
      requireAdmin(context);
      const db = context.locals.app.db;
      const page = parseCommentListQuery(context.url.searchParams);
      const status = parseStatusQuery(context.url.searchParams);
      if (status === null) {
        const { items, total } = await listCommentsForAdmin(db, page);
        return json(items, 200, { 'X-Total-Count': String(total) });
      }
      const { items, total, pending } = await listCommentsForModeration(db, status, page);
      return json(items, 200, { 'X-Total-Count': String(total), 'X-Pending-Count': String(pending) });
    },
  },
  { head: false },
);
