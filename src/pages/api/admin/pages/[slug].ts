import { json, readJsonObject } from '../../../../server/api/respond.ts';
import { route } from '../../../../server/api/route.ts';
import { BODY_LIMITS } from '../../../../server/api/body-limits.ts';
import { requireAdmin } from '../../../../server/auth/guard.ts';
import { AppError } from '../../../../server/errors.ts';
import { getInfoPage, saveInfoPageText } from '../../../../server/content/info-pages.ts';
import { getSiteSettings } from '../../../../server/content/site-settings.ts';
import { INFO_PAGE_MESSAGES, isInfoPageSlug, type InfoPageSlug } from '../../../../shared/validation/info-page.ts';
import type { APIContext } from 'astro';

function slugOf(context: APIContext): InfoPageSlug {
  const slug = context.params.slug;
  if (!isInfoPageSlug(slug)) throw new AppError('not_found', INFO_PAGE_MESSAGES.notFound);
  return slug;
}

/** GET and PUT /api/admin/pages/about|contact (admin): `{content, content_source}`, sanitized like an article. */
export const { GET, PUT, ALL } = route({
  GET: async (context) => {
    requireAdmin(context);
    const slug = slugOf(context);
    const { app } = context.locals;
    return json(await getInfoPage(app.db, slug, (await getSiteSettings(app)).site_title));
  },
  PUT: async (context) => {
    requireAdmin(context);
    const slug = slugOf(context);
    const { app } = context.locals;
    const body = await readJsonObject(context.request, BODY_LIMITS.blog);
    return json(await saveInfoPageText(app, slug, body, (await getSiteSettings(app)).site_title));
  },
});
