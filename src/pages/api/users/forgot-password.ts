import { json, readJsonObject } from '../../../server/api/respond.ts';
import { route } from '../../../server/api/route.ts';
import { BODY_LIMITS } from '../../../server/api/body-limits.ts';
import { readClientIp } from '../../../server/api/client-ip.ts';
import { requestPasswordReset } from '../../../server/auth/password-reset.ts';

/** POST /api/users/forgot-password {email} -> {message}, the same whether or not the email has an account. */
export const { POST, ALL } = route({
  POST: async (context) => {
    const { app } = context.locals;
    const body = await readJsonObject(context.request, BODY_LIMITS.account);
    const clientIp = readClientIp(context, app.config.trustProxy);
    return json(await requestPasswordReset(app, { body, clientIp }));
  },
});
