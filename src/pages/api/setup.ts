import { json, readJsonObject } from '../../server/api/respond.ts';
import { route } from '../../server/api/route.ts';
import { BODY_LIMITS } from '../../server/api/body-limits.ts';
import { setSessionCookie } from '../../server/auth/cookies.ts';
import { completeSetup } from '../../server/auth/owner-setup.ts';
import { SETUP_MESSAGES } from '../../shared/validation/setup.ts';
import type { SetupAnswer } from '../../shared/api-types.ts';

/**
 * POST /api/setup {token, username, email, password, site_title}: the first-run setup. Creates the
 * owner (an admin) and signs them in; 403 for a wrong or used link, 409 once an admin exists.
 */
export const { POST, ALL } = route({
  POST: async (context) => {
    const { app } = context.locals;
    const body = await readJsonObject(context.request, BODY_LIMITS.account);
    const { token, user } = await completeSetup(app, body);
    setSessionCookie(context.cookies, app.config, token);
    const answer: SetupAnswer = { username: user.username, is_admin: true, message: SETUP_MESSAGES.created };
    return json(answer, 201);
  },
});
