import { json, readJsonObject } from '../../../../server/api/respond.ts';
import { route } from '../../../../server/api/route.ts';
import { BODY_LIMITS } from '../../../../server/api/body-limits.ts';
import { requireUser } from '../../../../server/auth/guard.ts';
import { syncSavedArticles } from '../../../../server/content/reader-library.ts';

/** POST /api/library/saved `{ids}`: merges a device's saves after login -> `{saved, skipped}`. */
export const { POST, ALL } = route({
  POST: async (context) => {
    const user = requireUser(context);
    const body = await readJsonObject(context.request, BODY_LIMITS.library);
    return json(await syncSavedArticles(context.locals.app, user.id, body));
  },
});
