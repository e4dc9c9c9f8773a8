import type { AppContext } from '../context.ts';
import { findUserById, type PublicUser } from '../db/repositories/users.ts';
import { AppError } from '../errors.ts';
import { getAuthLimiters, startLoginAttempt } from './limits.ts';
import { verifyPassword } from './password.ts';

/**
 * Checks the signed-in reader's current password before a change to the account. A wrong one
 * counts as a failed login (the same limits, limits.ts), so a stolen session cannot be used to
 * guess the password; a right one takes the attempt back.
 */
export async function confirmCurrentPassword(
  app: AppContext,
  user: PublicUser,
  password: string,
  clientIp: string,
): Promise<void> {
  const attempt = startLoginAttempt(getAuthLimiters(app.config.rateLimits, app.hits), clientIp, user.email);
  const row = await findUserById(app.db, user.id);
  if (!row || !(await verifyPassword(row.password_hash, password)))
    throw new AppError('wrong_password', 'Your current password is not right.', {
      fields: { current_password: 'Your current password is not right.' },
    });
  attempt.succeeded();
}
