import { json } from '../../../../../../../server/api/respond.ts';
import { route } from '../../../../../../../server/api/route.ts';
import { requireId } from '../../../../../../../server/api/ids.ts';
import { requireAdmin } from '../../../../../../../server/auth/guard.ts';
import { requireInfoPageSlug } from '../../../../../../../server/content/info-pages.ts';
import { getInfoPageRevision } from '../../../../../../../server/content/info-page-revisions.ts';

export const { GET, ALL } = route({
  /** GET /api/admin/pages/:slug/revisions/:rev (admin): one revision with its text (what the diff compares). */
  GET: async (context) => {
    requireAdmin(context);
    const slug = requireInfoPageSlug(context.params.slug);
    return json(await getInfoPageRevision(context.locals.app, slug, requireId(context.params.rev, 'revision')));
  },
});
