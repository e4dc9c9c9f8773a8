import { json } from '../../../server/api/respond.ts';
import { route } from '../../../server/api/route.ts';
import { getTopViewed } from '../../../server/content/reader.ts';

/** GET /api/blogs/top-viewed: up to 17 `{id, title, created_at, clicks}`, most clicks first. */
export const { GET, ALL } = route({
  GET: async (context) => json(await getTopViewed(context.locals.app.db)),
});
