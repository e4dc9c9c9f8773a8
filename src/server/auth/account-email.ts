import type { AppContext } from '../context.ts';
import { findUserByEmail, setEmailUnconfirmed, updateUserEmail } from '../db/repositories/users.ts';
import { AppError, throwIfInvalid } from '../errors.ts';
import { getSiteSettings } from '../content/site-settings.ts';
import { emailChangeMail } from '../mail/messages.ts';
import { queueMail } from '../mail/outbox.ts';
import { validateChangeEmail } from '../../shared/validation/account-settings.ts';
import { ACCOUNT_TOKEN_PATTERN } from '../../shared/validation/password-reset.ts';
import { issueAccountLink, redeemAccountLink } from './account-links.ts';
import type { Signed } from './account-self.ts';
import { confirmCurrentPassword } from './current-password.ts';
import { confirmSignUpEmail, emailLinkPurpose } from './email-verification.ts';
import { confirmEmailHref } from '../../shared/site-map/paths.ts';

/**
 * A new email for the account: the current password, then a link mailed to the new address; the
 * account keeps its old address until that link is opened, so a typo cannot lock anyone out and
 * nobody can take an address they cannot read.
 */

const TAKEN = 'That email is already registered.';

export async function requestEmailChange(
  app: AppContext,
  signed: Signed,
  body: Record<string, unknown>,
): Promise<{ message: string }> {
  if (!app.config.mail) throw new AppError('unavailable', 'This site does not send mail, so the email cannot be changed here.');
  const input = throwIfInvalid(validateChangeEmail(body));
  await confirmCurrentPassword(app, signed.user, input.current_password, signed.clientIp);
  if (input.email.toLowerCase() === signed.user.email.toLowerCase())
    throw new AppError('invalid_input', 'That is already your email.', { fields: { email: 'That is already your email.' } });
  if (await findUserByEmail(app.db, input.email)) throw new AppError('conflict', TAKEN, { fields: { email: TAKEN } });
  const { site_title } = await getSiteSettings(app);
  await app.db.transaction().execute(async (trx) => {
    const token = await issueAccountLink(trx, { userId: signed.user.id, purpose: 'email_change', newEmail: input.email });
    const link = app.config.publicOrigin + confirmEmailHref(token);
    await queueMail(app, emailChangeMail({ to: input.email, siteTitle: site_title, username: signed.user.username, link }), trx);
  });
  return { message: `We sent a link to ${input.email}. Your email changes once you open it (within 30 minutes).` };
}

/**
 * The mailed link, opened: the token is the credential (no session needed, any browser). The same
 * page serves a sign-up's confirmation link (email-verification.ts).
 */
export async function confirmEmailChange(
  app: AppContext,
  body: Record<string, unknown>,
): Promise<{ message: string; email: string }> {
  const token = typeof body.token === 'string' ? body.token : '';
  if (!ACCOUNT_TOKEN_PATTERN.test(token))
    throw new AppError(
      'invalid_link',
      'This confirmation link is not valid. Check that you opened the whole link from the mail.',
    );
  if ((await emailLinkPurpose(app.db, token)) === 'email_verify') return confirmSignUpEmail(app, token);
  const email = await app.db.transaction().execute(async (trx) => {
    const link = await redeemAccountLink(trx, token, 'email_change');
    const newEmail = link.new_email!;
    const holder = await findUserByEmail(trx, newEmail);
    if (holder && holder.id !== link.user_id) throw new AppError('conflict', `${TAKEN} Nothing was changed.`);
    await updateUserEmail(trx, link.user_id, newEmail);
    await setEmailUnconfirmed(trx, link.user_id, false);
    return newEmail;
  });
  return { message: `Your email is now ${email}.`, email };
}
