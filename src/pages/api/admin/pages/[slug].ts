import { json, readJsonObject } from '../../../../server/api/respond.ts';
import { route } from '../../../../server/api/route.ts';
import { BODY_LIMITS } from '../../../../server/api/body-limits.ts';
import { requireAdmin } from '../../../../server/auth/guard.ts';
import { getInfoPage, requireInfoPageSlug, saveInfoPageText } from '../../../../server/content/info-pages.ts';
import { getSiteSettings } from '../../../../server/content/site-settings.ts';

/** GET and PUT /api/admin/pages/about|contact (admin): `{content, content_source}`, sanitized like an article; a save is a revision. */
export const { GET, PUT, ALL } = route({
  GET: async (context) => {
    requireAdmin(context);
    const slug = requireInfoPageSlug(context.params.slug);
    const { app } = context.locals;
    return json(await getInfoPage(app.db, slug, (await getSiteSettings(app)).site_title));
  },
  PUT: async (context) => {
    const admin = requireAdmin(context);
    const slug = requireInfoPageSlug(context.params.slug);
    const { app } = context.locals;
    const body = await readJsonObject(context.request, BODY_LIMITS.blog);
    return json(await saveInfoPageText(app, admin, slug, body, (await getSiteSettings(app)).site_title));
  },
});
