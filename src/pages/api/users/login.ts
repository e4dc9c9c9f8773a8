import { json, readJsonObject } from '../../../server/api/respond.ts';
import { route } from '../../../server/api/route.ts';
import { BODY_LIMITS } from '../../../server/api/body-limits.ts';
import { readClientIp } from '../../../server/api/client-ip.ts';
import { readCredential } from '../../../server/auth/credentials.ts';
import { setSessionCookie } from '../../../server/auth/cookies.ts';
import { logIn } from '../../../server/auth/login.ts';

/** POST /api/users/login {email,password} -> {token,is_admin,username}, and the session cookie. */
export const { POST, ALL } = route({
  POST: async (context) => {
    const { app, sessionId } = context.locals;
    const body = await readJsonObject(context.request, BODY_LIMITS.account);
    const fromCookie = readCredential(context.request.headers, context.cookies, app.config).source === 'cookie';
    const clientIp = readClientIp(context, app.config.trustProxy);
    const { token, user } = await logIn(app, {
      body,
      clientIp,
      replacesSessionId: fromCookie ? sessionId : null,
      userAgent: context.request.headers.get('user-agent'),
    });
    setSessionCookie(context.cookies, app.config, token);
    return json({ token, is_admin: user.is_admin === 1, username: user.username });
  },
});
