import type { FieldErrors, ValidationResult } from './common.ts';

/**
 * The owner's rules for readers' accounts (`/admin/settings`, `PUT /api/admin/account-policy`):
 * what becomes of a deleted account's comments.
 */
export const DELETED_COMMENTS_CHOICES = ['rename', 'remove'] as const;
export type DeletedCommentsChoice = (typeof DELETED_COMMENTS_CHOICES)[number];

export interface AccountPolicy {
  /** rename: the comments stay, signed "deleted user"; remove: they go with the account. */
  deleted_comments: DeletedCommentsChoice;
}

export const DEFAULT_ACCOUNT_POLICY: AccountPolicy = { deleted_comments: 'rename' };

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
  return { values, errors };
}
