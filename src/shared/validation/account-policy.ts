import type { FieldErrors, ValidationResult } from './common.ts';

/**
 * The owner's rules for readers' accounts (`/admin/settings`, `PUT /api/admin/account-policy`):
 * what becomes of a deleted account's comments, whether admins must use two-factor sign-in,
 * whether new readers confirm their email, whether admins get a mail when comments wait.
 */
export const DELETED_COMMENTS_CHOICES = ['rename', 'remove'] as const;
export type DeletedCommentsChoice = (typeof DELETED_COMMENTS_CHOICES)[number];

export interface AccountPolicy {
  /** rename: the comments stay, signed "deleted user"; remove: they go with the account. */
  deleted_comments: DeletedCommentsChoice;
  /** Every admin must sign in with a second factor; one without it must set it up before the admin screens open. */
  require_admin_2fa: boolean;
  /** A reader who signs up must open a link mailed to them before logging in (only while mail is on). */
  verify_reader_email: boolean;
  /** Admins get a mail when comments wait for moderation, at most one an hour (only while mail is on). */
  moderation_digest: boolean;
}

export const DEFAULT_ACCOUNT_POLICY: AccountPolicy = {
  deleted_comments: 'rename',
  require_admin_2fa: false,
  verify_reader_email: false,
  moderation_digest: false,
};

const SWITCH_MESSAGES: Record<'require_admin_2fa' | 'verify_reader_email' | 'moderation_digest', string> = {
  require_admin_2fa: 'Say whether admins must use two-factor sign-in (true or false).',
  verify_reader_email: 'Say whether new readers must confirm their email (true or false).',
  moderation_digest: 'Say whether admins get a mail when comments wait for moderation (true or false).',
};

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
  for (const key of Object.keys(SWITCH_MESSAGES) as Array<keyof typeof SWITCH_MESSAGES>) {
    const value = body[key];
    if (value === undefined) continue;
    if (typeof value === 'boolean') values[key] = value;
    else errors[key] = SWITCH_MESSAGES[key];
  }
  return { values, errors };
}
