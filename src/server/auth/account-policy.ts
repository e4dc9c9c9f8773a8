import type { Db } from '../db/client.ts';
import { readSettingRows, writeSettingRows } from '../db/repositories/site-settings.ts';
import { throwIfInvalid } from '../errors.ts';
import {
  DEFAULT_ACCOUNT_POLICY,
  DELETED_COMMENTS_CHOICES,
  validateAccountPolicy,
  type AccountPolicy,
  type DeletedCommentsChoice,
} from '../../shared/validation/account-policy.ts';

/**
 * The owner's rules for readers' accounts, kept as `account_*` rows of `site_settings` (no page
 * shows them, so saving them refreshes no page).
 */
const KEYS = { deleted_comments: 'account_deleted_comments' } as const;

export async function readAccountPolicy(db: Db): Promise<AccountPolicy> {
  const rows = await readSettingRows(db);
  const stored = rows[KEYS.deleted_comments] as DeletedCommentsChoice | undefined;
  return {
    deleted_comments: stored && DELETED_COMMENTS_CHOICES.includes(stored) ? stored : DEFAULT_ACCOUNT_POLICY.deleted_comments,
  };
}

/** The admin's save: checked (400 naming the field), written, answered as now stored. */
export async function saveAccountPolicy(db: Db, body: Record<string, unknown>): Promise<AccountPolicy> {
  const values = throwIfInvalid(validateAccountPolicy(body, await readAccountPolicy(db)));
  await writeSettingRows(db, { [KEYS.deleted_comments]: values.deleted_comments });
  return readAccountPolicy(db);
}
