import { json } from '../../../server/api/respond.ts';
import { route } from '../../../server/api/route.ts';
import { requireAdmin } from '../../../server/auth/guard.ts';
import { removeDemoContent } from '../../../server/content/demo-removal.ts';

/** DELETE /api/admin/demo-content (admin): removes every piece of demo content; 404 when there is none. */
export const { DELETE, ALL } = route({
  DELETE: async (context) => {
    requireAdmin(context);
    return json(await removeDemoContent(context.locals.app));
  },
});
