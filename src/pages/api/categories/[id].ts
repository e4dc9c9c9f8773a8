import { json, readJsonObject } from '../../../server/api/respond.ts';
import { route } from '../../../server/api/route.ts';
import { requireId } from '../../../server/api/ids.ts';
import { BODY_LIMITS } from '../../../server/api/body-limits.ts';
import { requireAdmin } from '../../../server/auth/guard.ts';
import { deleteCategoryById, updateCategoryById } from '../../../server/content/categories-admin.ts';

export const { PUT, DELETE, ALL } = route({
  /** PUT /api/categories/:id (admin) {name, sequence}: 200 {id, name, sequence, live_ms}; 409 on a taken name. */
  PUT: async (context) => {
    requireAdmin(context);
    const id = requireId(context.params.id, 'category');
    const body = await readJsonObject(context.request, BODY_LIMITS.category);
    return json(await updateCategoryById(context.locals.app, id, body));
  },
  /** DELETE /api/categories/:id (admin): 200 {message, live_ms}; its articles show as General. */
  DELETE: async (context) => {
    requireAdmin(context);
    return json(await deleteCategoryById(context.locals.app, requireId(context.params.id, 'category')));
  },
});
