import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../db/client.ts';
import { openMigratedDatabase } from '../../../tests/support/db.ts';
import { insertUser } from '../db/repositories/users.ts';
import { AppError } from '../errors.ts';
import { LINK_VALID_MS, hashLinkToken, issueAccountLink, redeemAccountLink } from './account-links.ts';

let db: Db;
let close: () => void;
let userId: number;
const start = Date.parse('2026-01-01T00:00:00.000Z');

beforeEach(async () => {
  ({ db, close } = await openMigratedDatabase());
  userId = (await insertUser(db, { username: 'ann', email: 'ann@example.test', passwordHash: 'x', isAdmin: false })).id;
});
afterEach(() => close());

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).code).toBe('invalid_link');
  return error as AppError;
}

describe('account links', () => {
  it('stores only the hash and works once', async () => {
    const token = await issueAccountLink(db, { userId, purpose: 'password_reset' }, start);
    const stored = await db.selectFrom('account_tokens').select('token_hash').execute();
    expect(stored).toEqual([{ token_hash: hashLinkToken(token) }]);
    expect((await redeemAccountLink(db, token, 'password_reset', start + 1000)).user_id).toBe(userId);
    expect((await refusal(redeemAccountLink(db, token, 'password_reset', start + 2000))).message).toMatch(/already been used/);
  });

  it('expires after 30 minutes', async () => {
    const token = await issueAccountLink(db, { userId, purpose: 'password_reset' }, start);
    expect((await refusal(redeemAccountLink(db, token, 'password_reset', start + LINK_VALID_MS))).message).toMatch(/expired/);
    const fresh = await issueAccountLink(db, { userId, purpose: 'password_reset' }, start);
    expect((await redeemAccountLink(db, fresh, 'password_reset', start + LINK_VALID_MS - 1)).user_id).toBe(userId);
  });

  it('retires the older link when a newer one is sent, and refuses a link of another purpose', async () => {
    const older = await issueAccountLink(db, { userId, purpose: 'password_reset' }, start);
    const newer = await issueAccountLink(db, { userId, purpose: 'password_reset' }, start + 1000);
    expect((await refusal(redeemAccountLink(db, older, 'password_reset', start + 2000))).message).toMatch(/newer one/);
    expect((await refusal(redeemAccountLink(db, newer, 'email_change', start + 2000))).message).toMatch(/not valid/);
    expect((await refusal(redeemAccountLink(db, 'B'.repeat(43), 'password_reset', start))).message).toMatch(/not valid/);
  });
});
