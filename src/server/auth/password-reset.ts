import type { AppContext } from '../context.ts';
import { deleteUserSessions } from '../db/repositories/sessions.ts';
import { findUserByEmail, setEmailUnconfirmed, updateUserPassword } from '../db/repositories/users.ts';
import { AppError, throwIfInvalid } from '../errors.ts';
import { getSiteSettings } from '../content/site-settings.ts';
import { passwordResetMail } from '../mail/messages.ts';
import { queueMail } from '../mail/outbox.ts';
import { validateForgotPassword, validateResetPassword } from '../../shared/validation/password-reset.ts';
import { issueAccountLink, redeemAccountLink } from './account-links.ts';
import { hashPassword } from './password.ts';
import { getRecoveryLimiters, takeResetRequest, type RecoveryLimiters } from './recovery-limits.ts';
import { resetPasswordHref } from '../../shared/site-map/paths.ts';

/**
 * "Forgot password?": a mailed single-use link (account-links.ts), then a new password that ends
 * every session of the account. The answer to a request is the same whether or not the email
 * has an account, and it never waits for the mail server (the mail is queued).
 */
export const RESET_REQUESTED_MESSAGE =
  'If an account uses that email, a link to reset its password is on its way. It is valid for 30 minutes.';
export const PASSWORD_RESET_MESSAGE =
  'Your password was changed and every session of your account was ended. You can log in now.';

export function mailIsOff(): AppError {
  return new AppError('unavailable', 'This site does not send mail, so passwords cannot be reset by email. Ask the site owner.');
}

export async function requestPasswordReset(
  app: AppContext,
  request: { body: Record<string, unknown>; clientIp: string },
  limiters?: RecoveryLimiters,
): Promise<{ message: string }> {
  if (!app.config.mail) throw mailIsOff();
  const { email } = throwIfInvalid(validateForgotPassword(request.body));
  takeResetRequest(limiters ?? getRecoveryLimiters(app.config.rateLimits, app.hits), request.clientIp, email);
  const user = await findUserByEmail(app.db, email);
  if (user) {
    const { site_title } = await getSiteSettings(app);
    await app.db.transaction().execute(async (trx) => {
      const token = await issueAccountLink(trx, { userId: user.id, purpose: 'password_reset' });
      const link = app.config.publicOrigin + resetPasswordHref(token);
      await queueMail(app, passwordResetMail({ to: user.email, siteTitle: site_title, link }), trx);
    });
  }
  return { message: RESET_REQUESTED_MESSAGE };
}

/** The new password from the link's form: one transaction uses the link, sets it and ends every session. */
export async function resetPassword(app: AppContext, body: Record<string, unknown>): Promise<{ message: string }> {
  const input = throwIfInvalid(validateResetPassword(body));
  // Hashed before the transaction: argon2 takes a while and must not hold the write lock.
  const passwordHash = await hashPassword(input.password);
  await app.db.transaction().execute(async (trx) => {
    const link = await redeemAccountLink(trx, input.token, 'password_reset');
    await updateUserPassword(trx, link.user_id, passwordHash);
    await deleteUserSessions(trx, link.user_id);
    // The link reached the inbox: the email is confirmed too.
    await setEmailUnconfirmed(trx, link.user_id, false);
  });
  return { message: PASSWORD_RESET_MESSAGE };
}
