import { json, readJsonObject } from '../../../server/api/respond.ts';
import { route } from '../../../server/api/route.ts';
import { BODY_LIMITS } from '../../../server/api/body-limits.ts';
import { readClientIp } from '../../../server/api/client-ip.ts';
import { requireSession } from '../../../server/auth/guard.ts';
import { getAccount } from '../../../server/auth/account-self.ts';
import { deleteOwnAccount } from '../../../server/auth/account-deletion.ts';
import { clearSessionCookie } from '../../../server/auth/cookies.ts';

/**
 * GET /api/account -> the signed-in reader's account and sessions.
 * DELETE /api/account {current_password} -> {message}: the account is gone, the cookie cleared.
 */
export const { GET, DELETE, ALL } = route({
  GET: async (context) => {
    const { app } = context.locals;
    return json(await getAccount(app, { ...requireSession(context), clientIp: readClientIp(context, app.config.trustProxy) }));
  },
  DELETE: async (context) => {
    const { app } = context.locals;
    const signed = { ...requireSession(context), clientIp: readClientIp(context, app.config.trustProxy) };
    const body = await readJsonObject(context.request, BODY_LIMITS.account);
    const answer = await deleteOwnAccount(app, signed, body);
    clearSessionCookie(context.cookies, app.config);
    return json(answer);
  },
});
