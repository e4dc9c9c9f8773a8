import type { Db } from '../db/client.ts';
import { writeSettingRows } from '../db/repositories/site-settings.ts';
import { ACCOUNT_POLICY_KEYS, readAccountPolicy } from '../db/repositories/account-policy.ts';
import { AppError, throwIfInvalid } from '../errors.ts';
import { hasTwoFactor } from './two-factor.ts';
import { validateAccountPolicy, type AccountPolicy } from '../../shared/validation/account-policy.ts';

export { readAccountPolicy };

const KEYS = ACCOUNT_POLICY_KEYS;

/**
 * The admin's save: checked (400 naming the field), written, answered as now stored. Requiring
 * two-factor sign-in is refused (409) to an admin who has not set it up, who would lock themselves out.
 */
export async function saveAccountPolicy(db: Db, body: Record<string, unknown>, adminId: number): Promise<AccountPolicy> {
  const values = throwIfInvalid(validateAccountPolicy(body, await readAccountPolicy(db)));
  if (values.require_admin_2fa && !(await hasTwoFactor(db, adminId)))
    throw new AppError(
      'conflict',
      'Set up two-factor sign-in for your own account first (on your account page), then require it.',
      {
        fields: { require_admin_2fa: 'Set up two-factor sign-in for your own account first.' },
      },
    );
  await writeSettingRows(db, {
    [KEYS.deleted_comments]: values.deleted_comments,
    [KEYS.require_admin_2fa]: values.require_admin_2fa ? '1' : '0',
    [KEYS.verify_reader_email]: values.verify_reader_email ? '1' : '0',
    [KEYS.moderation_digest]: values.moderation_digest ? '1' : '0',
  });
  return readAccountPolicy(db);
}

/** An admin who must set up two-factor sign-in before the admin screens open (the owner requires it). */
export async function mustSetUpTwoFactor(db: Db, user: { id: number; is_admin: number }): Promise<boolean> {
  if (user.is_admin !== 1) return false;
  return (await readAccountPolicy(db)).require_admin_2fa && !(await hasTwoFactor(db, user.id));
}
