import { json } from '../../../../../../../server/api/respond.ts';
import { route } from '../../../../../../../server/api/route.ts';
import { requireId } from '../../../../../../../server/api/ids.ts';
import { requireAdmin } from '../../../../../../../server/auth/guard.ts';
import { requireInfoPageSlug, restoreInfoPageRevision } from '../../../../../../../server/content/info-pages.ts';
import { getSiteSettings } from '../../../../../../../server/content/site-settings.ts';

export const { POST, ALL } = route({
  /** POST /api/admin/pages/:slug/revisions/:rev/restore (admin): the revision's text becomes the page's (a new revision); 200 as a save answers. */
  POST: async (context) => {
    const admin = requireAdmin(context);
    const slug = requireInfoPageSlug(context.params.slug);
    const revisionId = requireId(context.params.rev, 'revision');
    const { app } = context.locals;
    return json(await restoreInfoPageRevision(app, admin, slug, revisionId, (await getSiteSettings(app)).site_title));
  },
});
