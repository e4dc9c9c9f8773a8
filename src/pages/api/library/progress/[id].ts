import { noContent, readJsonObject } from '../../../../server/api/respond.ts';
import { route } from '../../../../server/api/route.ts';
import { requireId } from '../../../../server/api/ids.ts';
import { BODY_LIMITS } from '../../../../server/api/body-limits.ts';
import { requireUser } from '../../../../server/auth/guard.ts';
import { recordReadingProgress } from '../../../../server/content/reader-library.ts';

/** PUT /api/library/progress/:id `{position}` (0 to 1): where the reader stopped -> 204. */
export const { PUT, ALL } = route({
  PUT: async (context) => {
    const user = requireUser(context);
    const blogId = requireId(context.params.id, 'article');
    const body = await readJsonObject(context.request, BODY_LIMITS.library);
    await recordReadingProgress(context.locals.app, user.id, blogId, body);
    return noContent();
  },
});
