import { json } from '../../../../../../server/api/respond.ts';
import { route } from '../../../../../../server/api/route.ts';
import { requireAdmin } from '../../../../../../server/auth/guard.ts';
import { requireInfoPageSlug } from '../../../../../../server/content/info-pages.ts';
import { listRevisionsOfInfoPage } from '../../../../../../server/content/info-page-revisions.ts';

export const { GET, ALL } = route({
  /** GET /api/admin/pages/:slug/revisions (admin): every kept revision of About or Contact, newest first, without the text. */
  GET: async (context) => {
    requireAdmin(context);
    return json(await listRevisionsOfInfoPage(context.locals.app, requireInfoPageSlug(context.params.slug)));
  },
});
