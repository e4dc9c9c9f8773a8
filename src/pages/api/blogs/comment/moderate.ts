import { json, readJsonObject } from '../../../../server/api/respond.ts';
import { route } from '../../../../server/api/route.ts';
import { requireAdmin } from '../../../../server/auth/guard.ts';
import { moderateComments } from '../../../../server/content/comments-admin.ts';

/** POST /api/blogs/comment/moderate `{ids, action: approve|spam|delete}` (admin); the articles update. */
export const { POST, ALL } = route({
  POST: async (context) => {
    requireAdmin(context);
    const body = await readJsonObject(context.request);
    return json(await moderateComments(context.locals.app, body));
  },
});
