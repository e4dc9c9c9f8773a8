import { json } from '../../../../../../server/api/respond.ts';
import { route } from '../../../../../../server/api/route.ts';
import { requireId } from '../../../../../../server/api/ids.ts';
import { requireAdmin } from '../../../../../../server/auth/guard.ts';
import { restoreRevision } from '../../../../../../server/content/blogs-admin.ts';

export const { POST, ALL } = route({
  /** POST /api/blogs/:id/revisions/:rev/restore (admin): the revision's fields become the article's (a new revision); 200 with the blog plus live_ms. */
  POST: async (context) => {
    const admin = requireAdmin(context);
    const id = requireId(context.params.id, 'blog');
    return json(await restoreRevision(context.locals.app, admin, id, requireId(context.params.rev, 'revision')));
  },
});
