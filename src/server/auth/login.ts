import type { AppContext } from '../context.ts';
import type { PublicUser } from '../db/repositories/users.ts';
import { AppError, throwIfInvalid } from '../errors.ts';
import { authenticateWithPassword, registerAccount } from './accounts.ts';
import { getAuthLimiters, startLoginAttempt, tooManyAttempts, type AuthLimiters } from './limits.ts';
import { validateLogin, validateRegistration } from '../../shared/validation/account.ts';
import { createSession, invalidateSession, purgeExpiredSessions } from './sessions.ts';
import { hasTwoFactor, verifySecondFactor } from './two-factor.ts';
import { requireConfirmedEmail, signUpNeedsVerification, startEmailVerification } from './email-verification.ts';

export interface LoginRequest {
  body: Record<string, unknown>;
  clientIp: string;
  /** The browser's current cookie session, replaced rather than left behind. */
  replacesSessionId: string | null;
  /** The User-Agent header, kept with the session for the reader's list of sessions. */
  userAgent?: string | null;
}

export interface LoggedIn {
  token: string;
  user: PublicUser;
}

/**
 * A password login: checked input (400), the attempt counted before the password is verified
 * (429 once a limit is used up), the same 401 for a wrong password and an unknown email, the
 * second factor when the account has one (`code`: 401 second_factor_required without it), then a
 * new session. Bearer API clients log in here too, so they need the code as well.
 */
export async function logIn(app: AppContext, request: LoginRequest, limiters?: AuthLimiters): Promise<LoggedIn> {
  const { db, config } = app;
  const credentials = throwIfInvalid(validateLogin(request.body));
  const attempt = startLoginAttempt(
    limiters ?? getAuthLimiters(config.rateLimits, app.hits),
    request.clientIp,
    credentials.email,
  );
  const user = await authenticateWithPassword(db, credentials);
  if (!user) throw new AppError('invalid_credentials', 'Invalid email or password.');
  // A wrong or missing second factor stays a failed attempt, so codes are limited like passwords.
  if (await hasTwoFactor(db, user.id)) {
    const code = typeof request.body.code === 'string' ? request.body.code.trim() : '';
    if (code === '')
      throw new AppError('second_factor_required', 'Enter the 6-digit code from your authenticator app, or a recovery code.');
    if (code.length > 64 || !(await verifySecondFactor(db, user.id, code)))
      throw new AppError(
        'second_factor_invalid',
        'That code is not right, or it was already used. Enter the code your app shows now.',
        {
          fields: { code: 'That code is not right.' },
        },
      );
  }
  attempt.succeeded();
  // The password (and code) were right: only now may the answer say the email waits for its link.
  await requireConfirmedEmail(app, user);

  if (request.replacesSessionId) await invalidateSession(db, request.replacesSessionId);
  await purgeExpiredSessions(db);
  const { token } = await createSession(db, user.id, { userAgent: request.userAgent ?? null });
  return { token, user };
}

export interface RegisterRequest {
  body: Record<string, unknown>;
  clientIp: string;
}

export interface Registered {
  user: PublicUser;
  /** The owner asks new readers to confirm their email: a link was mailed, login waits for it. */
  confirm_email: boolean;
  message: string;
}

/**
 * A sign-up: counted once the input is well formed, so typos cost nothing and probing for taken
 * emails does. With email verification on, the account is unconfirmed until its mailed link is opened.
 */
export async function register(app: AppContext, request: RegisterRequest, limiters?: AuthLimiters): Promise<Registered> {
  const account = throwIfInvalid(validateRegistration(request.body));
  const decision = (limiters ?? getAuthLimiters(app.config.rateLimits, app.hits)).registerIp.take(request.clientIp);
  if (!decision.allowed) throw tooManyAttempts(decision, 'Too many sign-ups from this address. Please try again later.');
  if (!(await signUpNeedsVerification(app)))
    return {
      user: await registerAccount(app.db, account),
      confirm_email: false,
      message: 'Registration successful! Please log in.',
    };
  // Unconfirmed from its first row; a link that failed to queue is mailed again at its first login.
  const user = await registerAccount(app.db, account, { emailUnconfirmed: true });
  await startEmailVerification(app, user);
  return {
    user,
    confirm_email: true,
    message: `Almost there: open the link we mailed to ${user.email} (within 30 minutes) to confirm your email, then log in.`,
  };
}
