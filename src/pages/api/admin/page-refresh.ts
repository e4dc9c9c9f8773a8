import { json } from '../../../server/api/respond.ts';
import { route } from '../../../server/api/route.ts';
import { requireAdmin } from '../../../server/auth/guard.ts';
import type { PageRefreshStatus } from '../../../shared/api-types.ts';

/** GET /api/admin/page-refresh (admin): `{queued, refreshedSinceLastChange, seconds}` of the background refresh. */
export const { GET, ALL } = route({
  GET: async (context) => {
    requireAdmin(context);
    const status: PageRefreshStatus = context.locals.app.pageCache.refreshProgress();
    return json(status);
  },
});
