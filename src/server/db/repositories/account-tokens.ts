import type { Db } from '../client.ts';
import type { AccountTokenPurpose, AccountTokensTable } from '../schema.ts';
import type { Selectable } from 'kysely';

export type AccountToken = Selectable<AccountTokensTable>;

export async function insertAccountToken(db: Db, token: AccountToken): Promise<void> {
  await db.insertInto('account_tokens').values(token).execute();
}

export function findAccountToken(db: Db, tokenHash: string): Promise<AccountToken | undefined> {
  return db.selectFrom('account_tokens').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

/** Marks the token used unless it already was: true for the one caller that used it. */
export async function spendAccountToken(db: Db, tokenHash: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable('account_tokens')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Every unused link of that purpose stops working (a newer one was sent, or one was just used). */
export async function retireAccountTokens(db: Db, userId: number, purpose: AccountTokenPurpose, now: string): Promise<void> {
  await db
    .updateTable('account_tokens')
    .set({ used_at: now })
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .execute();
}

/** Rows a day past their expiry go: until then a used or expired link is told apart from a made-up one. */
export async function deleteStaleAccountTokens(db: Db, before: string): Promise<void> {
  await db.deleteFrom('account_tokens').where('expires_at', '<', before).execute();
}
