import { json, noContent } from '../../../../server/api/respond.ts';
import { route } from '../../../../server/api/route.ts';
import { requireId } from '../../../../server/api/ids.ts';
import { requireUser } from '../../../../server/auth/guard.ts';
import { removeArticle, saveArticle } from '../../../../server/content/reader-library.ts';

/** PUT /api/library/saved/:id -> 200 with the saved article (404 unknown, 409 full); DELETE -> 204. */
export const { PUT, DELETE, ALL } = route({
  PUT: async (context) => {
    const user = requireUser(context);
    return json(await saveArticle(context.locals.app, user.id, requireId(context.params.id, 'article')));
  },
  DELETE: async (context) => {
    const user = requireUser(context);
    await removeArticle(context.locals.app, user.id, requireId(context.params.id, 'article'));
    return noContent();
  },
});
