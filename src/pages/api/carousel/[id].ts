import { apiRoute, json, methodNotAllowed } from '../../../server/api/respond.ts';
import { requireAdmin } from '../../../server/auth/guard.ts';
import { invalidInput } from '../../../server/errors.ts';
import { removeSlide } from '../../../server/content/carousel-admin.ts';
import { parseId } from '../../../shared/ids.ts';

/** DELETE /api/carousel/:id (admin): 200 {message: 'Carousel Deleted Successfully !', live_ms}. */
export const DELETE = apiRoute(async (context) => {
  requireAdmin(context);
  const id = parseId(context.params.id);
  if (id === null) throw invalidInput('The slide id must be a positive whole number.');
  return json(await removeSlide(context.locals.app, id));
});

export const ALL = apiRoute(() => methodNotAllowed(['DELETE']));
