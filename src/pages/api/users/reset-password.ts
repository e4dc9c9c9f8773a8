import { json, readJsonObject } from '../../../server/api/respond.ts';
import { route } from '../../../server/api/route.ts';
import { BODY_LIMITS } from '../../../server/api/body-limits.ts';
import { resetPassword } from '../../../server/auth/password-reset.ts';

/** POST /api/users/reset-password {token,password} -> {message}; every session of the account ends. */
export const { POST, ALL } = route({
  POST: async (context) => {
    const body = await readJsonObject(context.request, BODY_LIMITS.account);
    return json(await resetPassword(context.locals.app, body));
  },
});
