import { apiRoute, json, methodNotAllowed, readJsonObject } from '../../../server/api/respond.ts';
import { AppError, throwIfInvalid } from '../../../server/errors.ts';
import { validateLogin } from '../../../shared/validation/account.ts';
import { authenticateWithPassword } from '../../../server/auth/accounts.ts';
import { readClientIp } from '../../../server/api/client-ip.ts';
import { getAuthLimiters, loginAccountKey, tooManyAttempts } from '../../../server/auth/limits.ts';
import { createSession, invalidateSession, purgeExpiredSessions } from '../../../server/auth/sessions.ts';
import { setSessionCookie } from '../../../server/auth/cookies.ts';
import { readCredential } from '../../../server/auth/credentials.ts';

const INVALID = 'Invalid email or password.';

/** POST /api/users/login {email,password} -> {token,is_admin,username}, and the session cookie. */
export const POST = apiRoute(async (context) => {
  const { db, config } = context.locals.app;
  const input = throwIfInvalid(validateLogin(await readJsonObject(context.request, 16 * 1024)));

  const limiters = getAuthLimiters();
  const ip = readClientIp(context, config.trustProxy);
  const accountKey = loginAccountKey(ip, input.email);
  for (const decision of [limiters.loginAccount.check(accountKey), limiters.loginIp.check(ip)]) {
    if (!decision.allowed) throw tooManyAttempts(decision, 'Too many failed login attempts. Please try again later.');
  }

  const user = await authenticateWithPassword(db, input);
  if (!user) {
    limiters.loginAccount.take(accountKey);
    limiters.loginIp.take(ip);
    throw new AppError('invalid_credentials', INVALID);
  }
  limiters.loginAccount.reset(accountKey);

  // The browser's previous session, if any, is replaced rather than left behind.
  const previous = readCredential(context.request.headers, context.cookies, config);
  if (previous.source === 'cookie' && context.locals.sessionId) await invalidateSession(db, context.locals.sessionId);
  await purgeExpiredSessions(db);

  const { token } = await createSession(db, user.id);
  setSessionCookie(context.cookies, config, token);
  return json({ token, is_admin: user.is_admin === 1, username: user.username });
});

export const ALL = apiRoute(() => methodNotAllowed(['POST']));
