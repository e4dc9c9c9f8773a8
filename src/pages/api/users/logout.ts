import { noContent } from '../../../server/api/respond.ts';
import { route } from '../../../server/api/route.ts';
import { invalidateSession } from '../../../server/auth/sessions.ts';
import { clearSessionCookie } from '../../../server/auth/cookies.ts';

/**
 * POST /api/users/logout -> 204. Ends the session on the server (cookie or Bearer) and clears the
 * cookie. Without a live session it still answers 204, so a stale tab can always log out.
 */
export const { POST, ALL } = route({
  POST: async (context) => {
    const { db, config } = context.locals.app;
    if (context.locals.sessionId) await invalidateSession(db, context.locals.sessionId);
    clearSessionCookie(context.cookies, config);
    return noContent();
  },
});
