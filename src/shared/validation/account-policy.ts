import type { FieldErrors, ValidationResult } from './common.ts';

/**
 * The owner's rules for readers' accounts (`/admin/settings`, `PUT /api/admin/account-policy`):
 * what becomes of a deleted account's comments, whether admins must use two-factor sign-in.
 */
export const DELETED_COMMENTS_CHOICES = ['rename', 'remove'] as const;
export type DeletedCommentsChoice = (typeof DELETED_COMMENTS_CHOICES)[number];

export interface AccountPolicy {
  /** rename: the comments stay, signed "deleted user"; remove: they go with the account. */
  deleted_comments: DeletedCommentsChoice;
  /** Every admin must sign in with a second factor; one without it must set it up before the admin screens open. */
  require_admin_2fa: boolean;
}

export const DEFAULT_ACCOUNT_POLICY: AccountPolicy = { deleted_comments: 'rename', require_admin_2fa: false };

/** The name a deleted account's kept comments show. */
export const DELETED_USER_NAME = 'deleted user';

export function validateAccountPolicy(body: Record<string, unknown>, current: AccountPolicy): ValidationResult<AccountPolicy> {
  const errors: FieldErrors = {};
  const values = { ...current };
  if (body.deleted_comments !== undefined) {
    if (DELETED_COMMENTS_CHOICES.includes(body.deleted_comments as DeletedCommentsChoice))
      values.deleted_comments = body.deleted_comments as DeletedCommentsChoice;
    else errors.deleted_comments = 'Choose whether a deleted account’s comments are kept as "deleted user" or removed.';
  }
  if (body.require_admin_2fa !== undefined) {
    if (typeof body.require_admin_2fa === 'boolean') values.require_admin_2fa = body.require_admin_2fa;
    else errors.require_admin_2fa = 'Say whether admins must use two-factor sign-in (true or false).';
  }
  return { values, errors };
}
