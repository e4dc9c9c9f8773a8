import { json, readJsonObject } from '../../../server/api/respond.ts';
import { route } from '../../../server/api/route.ts';
import { requireAdmin } from '../../../server/auth/guard.ts';
import { readAccountPolicy, saveAccountPolicy } from '../../../server/auth/account-policy.ts';

/** GET/PUT /api/admin/account-policy {deleted_comments} -> the owner's rules for readers' accounts. */
export const { GET, PUT, ALL } = route({
  GET: async (context) => {
    requireAdmin(context);
    return json(await readAccountPolicy(context.locals.app.db));
  },
  PUT: async (context) => {
    const admin = requireAdmin(context);
    return json(await saveAccountPolicy(context.locals.app.db, await readJsonObject(context.request), admin.id));
  },
});
