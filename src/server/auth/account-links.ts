import crypto from 'node:crypto';
import type { Db } from '../db/client.ts';
import {
  deleteStaleAccountTokens,
  findAccountToken,
  insertAccountToken,
  retireAccountTokens,
  spendAccountToken,
  type AccountToken,
} from '../db/repositories/account-tokens.ts';
import type { AccountTokenPurpose } from '../db/schema.ts';
import { AppError } from '../errors.ts';

/**
 * The single-use links mailed to a reader: 32 random bytes, of which only SHA-256 is stored, so a
 * copy of the database opens no account. Valid 30 minutes; issuing one retires the older ones of
 * the same purpose; using one is a conditional UPDATE, so two clicks cannot both succeed.
 */
export const LINK_VALID_MS = 30 * 60_000;
const KEEP_AFTER_EXPIRY_MS = 24 * 60 * 60_000;

export function hashLinkToken(token: string): string {
  return crypto.createHash('sha256').update(token).digest('hex');
}

/** Makes a link token for the user (call inside the transaction that queues its mail). */
export async function issueAccountLink(
  db: Db,
  input: { userId: number; purpose: AccountTokenPurpose; newEmail?: string },
  now = Date.now(),
): Promise<string> {
  const token = crypto.randomBytes(32).toString('base64url');
  const at = new Date(now).toISOString();
  await deleteStaleAccountTokens(db, new Date(now - KEEP_AFTER_EXPIRY_MS).toISOString());
  await retireAccountTokens(db, input.userId, input.purpose, at);
  await insertAccountToken(db, {
    token_hash: hashLinkToken(token),
    user_id: input.userId,
    purpose: input.purpose,
    new_email: input.newEmail ?? null,
    created_at: at,
    expires_at: new Date(now + LINK_VALID_MS).toISOString(),
    used_at: null,
  });
  return token;
}

const WHAT: Record<AccountTokenPurpose, string> = {
  password_reset: 'reset link',
  email_change: 'confirmation link',
  email_verify: 'confirmation link',
};

/**
 * Uses the link: answers its row, or throws `invalid_link` saying whether it expired, was already
 * used (or replaced by a newer one) or is not a link of ours. Call inside the transaction that
 * acts on it, so a failure later in it leaves the link unused.
 */
export async function redeemAccountLink(
  db: Db,
  token: string,
  purpose: AccountTokenPurpose,
  now = Date.now(),
): Promise<AccountToken> {
  const what = WHAT[purpose];
  const row = await findAccountToken(db, hashLinkToken(token));
  if (!row || row.purpose !== purpose)
    throw new AppError(
      'invalid_link',
      `This ${what} is not valid. Check that you opened the whole link from the mail, or ask for a new one.`,
    );
  if (row.used_at !== null)
    throw new AppError(
      'invalid_link',
      `This ${what} has already been used or a newer one was sent. Ask for a new one if you still need it.`,
    );
  if (Date.parse(row.expires_at) <= now)
    throw new AppError('invalid_link', `This ${what} has expired (links are valid for 30 minutes). Ask for a new one.`);
  if (!(await spendAccountToken(db, row.token_hash, new Date(now).toISOString())))
    throw new AppError('invalid_link', `This ${what} has already been used. Ask for a new one if you still need it.`);
  return row;
}
