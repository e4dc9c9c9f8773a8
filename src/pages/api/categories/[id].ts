import { apiRoute, json, methodNotAllowed, readJsonObject } from '../../../server/api/respond.ts';
import { requireAdmin } from '../../../server/auth/guard.ts';
import { invalidInput } from '../../../server/errors.ts';
import { deleteCategoryById, updateCategoryById } from '../../../server/content/categories-admin.ts';
import { parseId } from '../../../shared/ids.ts';

function requireCategoryId(raw: string | undefined): number {
  const id = parseId(raw);
  if (id === null) throw invalidInput('The category id must be a positive whole number.');
  return id;
}

/** PUT /api/categories/:id (admin) {name, sequence}: 200 {id, name, sequence, live_ms}; 409 on a taken name. */
export const PUT = apiRoute(async (context) => {
  requireAdmin(context);
  const id = requireCategoryId(context.params.id);
  const body = await readJsonObject(context.request, 16 * 1024);
  return json(await updateCategoryById(context.locals.app, id, body));
});

/** DELETE /api/categories/:id (admin): 200 {message, live_ms}; its articles show as General. */
export const DELETE = apiRoute(async (context) => {
  requireAdmin(context);
  const id = requireCategoryId(context.params.id);
  return json(await deleteCategoryById(context.locals.app, id));
});

export const ALL = apiRoute(() => methodNotAllowed(['PUT', 'DELETE']));
