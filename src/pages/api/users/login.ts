import { apiRoute, json, methodNotAllowed, readJsonObject } from '../../../server/api/respond.ts';
import { readClientIp } from '../../../server/api/client-ip.ts';
import { readCredential } from '../../../server/auth/credentials.ts';
import { setSessionCookie } from '../../../server/auth/cookies.ts';
import { logIn } from '../../../server/auth/login.ts';

/** POST /api/users/login {email,password} -> {token,is_admin,username}, and the session cookie. */
export const POST = apiRoute(async (context) => {
  const { app, sessionId } = context.locals;
  const body = await readJsonObject(context.request, 16 * 1024);
  const fromCookie = readCredential(context.request.headers, context.cookies, app.config).source === 'cookie';
  const clientIp = readClientIp(context, app.config.trustProxy);
  const { token, user } = await logIn(app, { body, clientIp, replacesSessionId: fromCookie ? sessionId : null });
  setSessionCookie(context.cookies, app.config, token);
  return json({ token, is_admin: user.is_admin === 1, username: user.username });
});

export const ALL = apiRoute(() => methodNotAllowed(['POST']));
