import { json, readJsonObject } from '../../../server/api/respond.ts';
import { route } from '../../../server/api/route.ts';
import { requireAdmin } from '../../../server/auth/guard.ts';
import { getSettingsAnswer, saveSiteSettings } from '../../../server/content/site-settings.ts';

/**
 * GET and PUT /api/admin/settings (admin): `{settings, demo}`; a PUT takes any of the settings'
 * fields (left out: unchanged), answers 400 naming each bad field, else the saved settings with
 * `live_ms` and `refresh` (every page is refreshed).
 */
export const { GET, PUT, ALL } = route({
  GET: async (context) => {
    requireAdmin(context);
    return json(await getSettingsAnswer(context.locals.app.db));
  },
  PUT: async (context) => {
    requireAdmin(context);
    const body = await readJsonObject(context.request);
    return json(await saveSiteSettings(context.locals.app, body));
  },
});
