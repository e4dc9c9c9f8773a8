import { json, readJsonObject } from '../../../server/api/respond.ts';
import { route } from '../../../server/api/route.ts';
import { BODY_LIMITS } from '../../../server/api/body-limits.ts';
import { confirmEmailChange } from '../../../server/auth/account-email.ts';

/** POST /api/users/confirm-email {token} -> {message,email}: the mailed link is the credential. */
export const { POST, ALL } = route({
  POST: async (context) => {
    const body = await readJsonObject(context.request, BODY_LIMITS.account);
    return json(await confirmEmailChange(context.locals.app, body));
  },
});
