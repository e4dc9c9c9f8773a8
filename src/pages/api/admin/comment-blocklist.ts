import { json, readJsonObject } from '../../../server/api/respond.ts';
import { route } from '../../../server/api/route.ts';
import { requireAdmin } from '../../../server/auth/guard.ts';
import { getBlocklist, saveBlocklist } from '../../../server/content/spam-blocklist.ts';

/** GET and PUT /api/admin/comment-blocklist `{words}` (admin): the words that hold a comment. */
export const { GET, PUT, ALL } = route({
  GET: async (context) => {
    requireAdmin(context);
    return json(await getBlocklist(context.locals.app.db));
  },
  PUT: async (context) => {
    requireAdmin(context);
    const body = await readJsonObject(context.request);
    return json(await saveBlocklist(context.locals.app.db, body));
  },
});
