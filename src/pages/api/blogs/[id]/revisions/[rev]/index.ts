import { json } from '../../../../../../server/api/respond.ts';
import { route } from '../../../../../../server/api/route.ts';
import { requireId } from '../../../../../../server/api/ids.ts';
import { requireAdmin } from '../../../../../../server/auth/guard.ts';
import { getRevision } from '../../../../../../server/content/blog-revisions.ts';

export const { GET, ALL } = route({
  /** GET /api/blogs/:id/revisions/:rev (admin): one revision with every field (what the diff compares). */
  GET: async (context) => {
    requireAdmin(context);
    const app = context.locals.app;
    return json(await getRevision(app, requireId(context.params.id, 'blog'), requireId(context.params.rev, 'revision')));
  },
});
