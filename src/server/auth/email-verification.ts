import type { AppContext } from '../context.ts';
import type { Db } from '../db/client.ts';
import { findAccountToken } from '../db/repositories/account-tokens.ts';
import { findUserById, setEmailUnconfirmed, type PublicUser } from '../db/repositories/users.ts';
import { AppError } from '../errors.ts';
import { getSiteSettings } from '../content/site-settings.ts';
import { emailVerificationMail } from '../mail/messages.ts';
import { queueMail } from '../mail/outbox.ts';
import { ACCOUNT_TOKEN_PATTERN } from '../../shared/validation/password-reset.ts';
import { readAccountPolicy } from './account-policy.ts';
import { hashLinkToken, issueAccountLink, redeemAccountLink } from './account-links.ts';
import { getRecoveryLimiters, type RecoveryLimiters } from './recovery-limits.ts';
import { confirmEmailHref } from '../../shared/site-map/paths.ts';

/**
 * Email verification for new readers (the owner's switch in Settings, only while mail is on): a
 * reader who signs up gets a single-use link (account-links.ts) and cannot log in until it is
 * opened; logging in with the right password before that mails a new link (at most
 * RATE_LIMIT_RESET_EMAIL an hour). Turning the switch off lets such readers in as they are.
 */

/** True when a reader signing up now must confirm the email first. */
export async function signUpNeedsVerification(app: AppContext): Promise<boolean> {
  return app.config.mail !== null && (await readAccountPolicy(app.db)).verify_reader_email;
}

/** Marks the account unconfirmed and queues a new link to its email (one transaction). */
export async function startEmailVerification(app: AppContext, user: PublicUser): Promise<void> {
  // Read before the transaction: a query outside it would wait for the connection it holds.
  const { site_title } = await getSiteSettings(app);
  await app.db.transaction().execute(async (trx) => {
    await setEmailUnconfirmed(trx, user.id, true);
    const token = await issueAccountLink(trx, { userId: user.id, purpose: 'email_verify' });
    const link = app.config.publicOrigin + confirmEmailHref(token);
    await queueMail(app, emailVerificationMail({ to: user.email, siteTitle: site_title, username: user.username, link }), trx);
  });
}

export const VERIFY_FIRST_MESSAGE = (email: string) =>
  `Confirm your email first: open the link we mailed to ${email}. A new link is on its way (valid for 30 minutes).`;
const VERIFY_WAIT_MESSAGE = (email: string) =>
  `Confirm your email first: open the link we mailed to ${email}. We sent several already; the newest one works.`;

/**
 * At login, after the password was right: refuses (403 email_unconfirmed) a reader who has not
 * confirmed the email while the setting is on, mailing a fresh link unless too many went lately.
 */
export async function requireConfirmedEmail(app: AppContext, user: PublicUser, limiters?: RecoveryLimiters): Promise<void> {
  const row = await findUserById(app.db, user.id);
  if (row?.email_unconfirmed !== 1 || !(await signUpNeedsVerification(app))) return;
  const inbox = (limiters ?? getRecoveryLimiters(app.config.rateLimits, app.hits)).resetEmail.take(user.email.toLowerCase());
  if (!inbox.allowed) throw new AppError('email_unconfirmed', VERIFY_WAIT_MESSAGE(user.email));
  await startEmailVerification(app, user);
  throw new AppError('email_unconfirmed', VERIFY_FIRST_MESSAGE(user.email));
}

/** Which kind of mailed email link this token is (the confirm page serves both), or null. */
export async function emailLinkPurpose(db: Db, token: string): Promise<'email_verify' | 'email_change' | null> {
  if (!ACCOUNT_TOKEN_PATTERN.test(token)) return null;
  const row = await findAccountToken(db, hashLinkToken(token));
  return row?.purpose === 'email_verify' || row?.purpose === 'email_change' ? row.purpose : null;
}

/** The sign-up's link, opened: the email is confirmed and the reader can log in. */
export async function confirmSignUpEmail(app: AppContext, token: string): Promise<{ message: string; email: string }> {
  return app.db.transaction().execute(async (trx) => {
    const link = await redeemAccountLink(trx, token, 'email_verify');
    await setEmailUnconfirmed(trx, link.user_id, false);
    const user = await findUserById(trx, link.user_id);
    return { message: 'Your email is confirmed. You can log in now.', email: user?.email ?? '' };
  });
}
