import { json, readJsonObject } from '../../../../server/api/respond.ts';
import { route } from '../../../../server/api/route.ts';
import { BODY_LIMITS } from '../../../../server/api/body-limits.ts';
import { readClientIp } from '../../../../server/api/client-ip.ts';
import { requireSession } from '../../../../server/auth/guard.ts';
import { startEnrolment, turnOffTwoFactor } from '../../../../server/auth/two-factor.ts';
import { confirmCurrentPassword } from '../../../../server/auth/current-password.ts';
import { throwIfInvalid } from '../../../../server/errors.ts';
import { validateDeleteAccount } from '../../../../shared/validation/account-settings.ts';

/**
 * POST /api/account/two-factor -> {secret, uri, qr_svg}: a new secret to enrol (admins only).
 * DELETE /api/account/two-factor {current_password} -> {message}: two-factor sign-in off.
 */
export const { POST, DELETE, ALL } = route({
  POST: async (context) => json(await startEnrolment(context.locals.app, requireSession(context).user)),
  DELETE: async (context) => {
    const { app } = context.locals;
    const { user } = requireSession(context);
    const { current_password } = throwIfInvalid(
      validateDeleteAccount(await readJsonObject(context.request, BODY_LIMITS.account)),
    );
    await confirmCurrentPassword(app, user, current_password, readClientIp(context, app.config.trustProxy));
    return json(await turnOffTwoFactor(app, user.id));
  },
});
