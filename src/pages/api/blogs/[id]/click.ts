import { noContent } from '../../../../server/api/respond.ts';
import { route } from '../../../../server/api/route.ts';
import { requireId } from '../../../../server/api/ids.ts';
import { readClientIp } from '../../../../server/api/client-ip.ts';
import { recordClick } from '../../../../server/content/clicks.ts';

/** PUT /api/blogs/:id/click: 204; one view per address and article per half hour is counted. */
export const { PUT, ALL } = route({
  PUT: async (context) => {
    const { app } = context.locals;
    await recordClick(app, requireId(context.params.id, 'blog'), readClientIp(context, app.config.trustProxy));
    return noContent();
  },
});
