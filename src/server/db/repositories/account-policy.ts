import type { Db } from '../client.ts';
import { readSettingRows } from './site-settings.ts';
import {
  DEFAULT_ACCOUNT_POLICY,
  DELETED_COMMENTS_CHOICES,
  type AccountPolicy,
  type DeletedCommentsChoice,
} from '../../../shared/validation/account-policy.ts';

/**
 * The owner's rules for readers' accounts, kept as `account_*` rows of `site_settings` (no page
 * shows them, so saving them refreshes no page).
 */
export const ACCOUNT_POLICY_KEYS = {
  deleted_comments: 'account_deleted_comments',
  require_admin_2fa: 'account_require_admin_2fa',
  verify_reader_email: 'account_verify_reader_email',
  moderation_digest: 'account_moderation_digest',
} as const;

export async function readAccountPolicy(db: Db): Promise<AccountPolicy> {
  const rows = await readSettingRows(db);
  const stored = rows[ACCOUNT_POLICY_KEYS.deleted_comments] as DeletedCommentsChoice | undefined;
  return {
    deleted_comments: stored && DELETED_COMMENTS_CHOICES.includes(stored) ? stored : DEFAULT_ACCOUNT_POLICY.deleted_comments,
    require_admin_2fa: rows[ACCOUNT_POLICY_KEYS.require_admin_2fa] === '1',
    verify_reader_email: rows[ACCOUNT_POLICY_KEYS.verify_reader_email] === '1',
    moderation_digest: rows[ACCOUNT_POLICY_KEYS.moderation_digest] === '1',
  };
}
