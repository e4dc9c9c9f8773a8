import { json } from '../../../server/api/respond.ts';
import { route } from '../../../server/api/route.ts';
import { getRecent } from '../../../server/content/reader.ts';

/** GET /api/blogs/recent: newest first `{id, title, image, category_name}`, for the ticker. */
export const { GET, ALL } = route({
  GET: async (context) => json(await getRecent(context.locals.app.db)),
});
