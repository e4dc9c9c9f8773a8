import { json } from '../../../../../server/api/respond.ts';
import { route } from '../../../../../server/api/route.ts';
import { requireId } from '../../../../../server/api/ids.ts';
import { requireAdmin } from '../../../../../server/auth/guard.ts';
import { listBlogRevisions } from '../../../../../server/content/blog-revisions.ts';

export const { GET, ALL } = route({
  /** GET /api/blogs/:id/revisions (admin): every kept revision, newest first, without the text. */
  GET: async (context) => {
    requireAdmin(context);
    return json(await listBlogRevisions(context.locals.app, requireId(context.params.id, 'blog')));
  },
});
