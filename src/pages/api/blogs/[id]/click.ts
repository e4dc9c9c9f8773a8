import { apiRoute, methodNotAllowed, noContent } from '../../../../server/api/respond.ts';
import { readClientIp } from '../../../../server/api/client-ip.ts';
import { requireBlogId } from '../../../../server/content/validation-public.ts';
import { recordClick } from '../../../../server/content/clicks.ts';

/** PUT /api/blogs/:id/click: 204; one view per address and article per half hour is counted. */
export const PUT = apiRoute(async (context) => {
  const { app } = context.locals;
  await recordClick(app, requireBlogId(context.params.id), readClientIp(context, app.config.trustProxy));
  return noContent();
});

export const ALL = apiRoute(() => methodNotAllowed(['PUT']));
