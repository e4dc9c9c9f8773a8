import { json, readJsonObject } from '../../../server/api/respond.ts';
import { route } from '../../../server/api/route.ts';
import { BODY_LIMITS } from '../../../server/api/body-limits.ts';
import { readClientIp } from '../../../server/api/client-ip.ts';
import { requireSession } from '../../../server/auth/guard.ts';
import { requestEmailChange } from '../../../server/auth/account-email.ts';

/** POST /api/account/email {email,current_password} -> {message}: a confirmation link goes to the new address. */
export const { POST, ALL } = route({
  POST: async (context) => {
    const { app } = context.locals;
    const signed = { ...requireSession(context), clientIp: readClientIp(context, app.config.trustProxy) };
    return json(await requestEmailChange(app, signed, await readJsonObject(context.request, BODY_LIMITS.account)));
  },
});
