import { json } from '../../../../server/api/respond.ts';
import { route } from '../../../../server/api/route.ts';
import { readClientIp } from '../../../../server/api/client-ip.ts';
import { requireSession } from '../../../../server/auth/guard.ts';
import { endSession } from '../../../../server/auth/account-self.ts';
import { clearSessionCookie } from '../../../../server/auth/cookies.ts';

/** DELETE /api/account/sessions/:id -> {current}: ends one of the reader's sessions (this one logs out). */
export const { DELETE, ALL } = route({
  DELETE: async (context) => {
    const { app } = context.locals;
    const signed = { ...requireSession(context), clientIp: readClientIp(context, app.config.trustProxy) };
    const answer = await endSession(app, signed, context.params.id ?? '');
    if (answer.current) clearSessionCookie(context.cookies, app.config);
    return json(answer);
  },
});
