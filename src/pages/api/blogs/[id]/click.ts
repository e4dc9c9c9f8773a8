import { apiRoute, methodNotAllowed, noContent } from '../../../../server/api/respond.ts';
import { requireBlogId } from '../../../../server/content/validation-public.ts';
import { recordClick } from '../../../../server/content/clicks.ts';

/** PUT /api/blogs/:id/click: 204; the article's view count goes up by one. */
export const PUT = apiRoute(async (context) => {
  await recordClick(context.locals.app.db, requireBlogId(context.params.id));
  return noContent();
});

export const ALL = apiRoute(() => methodNotAllowed(['PUT']));
