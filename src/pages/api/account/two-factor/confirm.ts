import { json, readJsonObject } from '../../../../server/api/respond.ts';
import { route } from '../../../../server/api/route.ts';
import { BODY_LIMITS } from '../../../../server/api/body-limits.ts';
import { requireSession } from '../../../../server/auth/guard.ts';
import { confirmEnrolment } from '../../../../server/auth/two-factor.ts';

/** POST /api/account/two-factor/confirm {code} -> {recovery_codes, message}: two-factor sign-in is on. */
export const { POST, ALL } = route({
  POST: async (context) =>
    json(
      await confirmEnrolment(
        context.locals.app,
        requireSession(context).user,
        await readJsonObject(context.request, BODY_LIMITS.account),
      ),
    ),
});
