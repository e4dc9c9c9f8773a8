import { json } from '../../../server/api/respond.ts';
import { route } from '../../../server/api/route.ts';
import { requireId } from '../../../server/api/ids.ts';
import { requireAdmin } from '../../../server/auth/guard.ts';
import { removeSlide } from '../../../server/content/carousel-admin.ts';

/** DELETE /api/carousel/:id (admin): 200 {message: 'Carousel Deleted Successfully !', live_ms}. */
export const { DELETE, ALL } = route({
  DELETE: async (context) => {
    requireAdmin(context);
    return json(await removeSlide(context.locals.app, requireId(context.params.id, 'slide')));
  },
});
