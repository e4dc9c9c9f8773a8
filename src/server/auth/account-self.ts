import type { AppContext } from '../context.ts';
import { deleteOtherUserSessions, deleteSessionOfUser, listUserSessions } from '../db/repositories/sessions.ts';
import { updateUserPassword, type PublicUser } from '../db/repositories/users.ts';
import { notFound, throwIfInvalid } from '../errors.ts';
import { validateChangePassword } from '../../shared/validation/account-settings.ts';
import type { AccountAnswer } from '../../shared/account-types.ts';
import { readAccountPolicy } from './account-policy.ts';
import { confirmCurrentPassword } from './current-password.ts';
import { hashPassword } from './password.ts';
import { describeBrowser } from './user-agent.ts';
import { hasTwoFactor } from './two-factor.ts';

/** The signed-in reader's own account: what `/account` shows, a new password, the sessions. */

export interface Signed {
  user: PublicUser;
  /** The session making this request (null only when there is none, which the guard refuses). */
  sessionId: string | null;
  clientIp: string;
}

export async function getAccount(app: AppContext, signed: Signed): Promise<AccountAnswer> {
  const sessions = await listUserSessions(app.db, signed.user.id);
  const policy = await readAccountPolicy(app.db);
  const twoFactor = await hasTwoFactor(app.db, signed.user.id);
  return {
    deleted_comments: policy.deleted_comments,
    two_factor: twoFactor,
    two_factor_required: signed.user.is_admin === 1 && policy.require_admin_2fa && !twoFactor,
    username: signed.user.username,
    email: signed.user.email,
    is_admin: signed.user.is_admin === 1,
    mail: app.config.mail !== null,
    sessions: sessions.map((session) => ({
      id: session.id,
      current: session.id === signed.sessionId,
      browser: describeBrowser(session.userAgent ?? null),
      created_at: new Date(session.createdAt).toISOString(),
      last_used_at: new Date(session.lastVerifiedAt).toISOString(),
    })),
  };
}

/** A new password (the current one required); every other session ends, this one stays. */
export async function changePassword(
  app: AppContext,
  signed: Signed,
  body: Record<string, unknown>,
): Promise<{ message: string }> {
  const input = throwIfInvalid(validateChangePassword(body));
  await confirmCurrentPassword(app, signed.user, input.current_password, signed.clientIp);
  const passwordHash = await hashPassword(input.new_password);
  await app.db.transaction().execute(async (trx) => {
    await updateUserPassword(trx, signed.user.id, passwordHash);
    await deleteOtherUserSessions(trx, signed.user.id, signed.sessionId);
  });
  return { message: 'Your password was changed. Every other session of your account was ended.' };
}

/** Ends one of the reader's sessions (404 for an id that is not one of them). */
export async function endSession(app: AppContext, signed: Signed, sessionId: string): Promise<{ current: boolean }> {
  if (!(await deleteSessionOfUser(app.db, signed.user.id, sessionId))) throw notFound('That session');
  return { current: sessionId === signed.sessionId };
}
