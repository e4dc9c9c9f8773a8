import { json, readJsonObject } from '../../../server/api/respond.ts';
import { route } from '../../../server/api/route.ts';
import { BODY_LIMITS } from '../../../server/api/body-limits.ts';
import { readClientIp } from '../../../server/api/client-ip.ts';
import { requireSession } from '../../../server/auth/guard.ts';
import { changePassword } from '../../../server/auth/account-self.ts';

/** POST /api/account/password {current_password,new_password} -> {message}; every other session ends. */
export const { POST, ALL } = route({
  POST: async (context) => {
    const { app } = context.locals;
    const signed = { ...requireSession(context), clientIp: readClientIp(context, app.config.trustProxy) };
    return json(await changePassword(app, signed, await readJsonObject(context.request, BODY_LIMITS.account)));
  },
});
