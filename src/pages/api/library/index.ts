import { json } from '../../../server/api/respond.ts';
import { route } from '../../../server/api/route.ts';
import { requireUser } from '../../../server/auth/guard.ts';
import { getLibrary } from '../../../server/content/reader-library.ts';

/** GET /api/library -> the signed-in reader's saved articles, recent reads and own comments (401 signed out). */
export const { GET, ALL } = route({
  GET: async (context) => json(await getLibrary(context.locals.app, requireUser(context).id)),
});
