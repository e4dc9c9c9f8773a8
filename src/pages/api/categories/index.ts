import { json, readJsonObject } from '../../../server/api/respond.ts';
import { route } from '../../../server/api/route.ts';
import { BODY_LIMITS } from '../../../server/api/body-limits.ts';
import { getCategories } from '../../../server/content/reader.ts';
import { requireAdmin } from '../../../server/auth/guard.ts';
import { createCategory } from '../../../server/content/categories-admin.ts';

export const { GET, POST, ALL } = route({
  /** GET /api/categories: `[{id, name, sequence}]` by sequence, then id. */
  GET: async (context) => json(await getCategories(context.locals.app.db)),
  /** POST /api/categories (admin) {name, sequence}: 201 {id, name, sequence, live_ms}; 409 when the name exists. */
  POST: async (context) => {
    requireAdmin(context);
    const body = await readJsonObject(context.request, BODY_LIMITS.category);
    return json(await createCategory(context.locals.app, body), 201);
  },
});
