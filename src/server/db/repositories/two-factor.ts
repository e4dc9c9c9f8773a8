import type { Db } from '../client.ts';

/** Admins' two-factor secrets and recovery codes (migration 0012). */

export function findTotpSecret(db: Db, userId: number) {
  return db.selectFrom('totp_secrets').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

/** A new, unconfirmed secret (replacing an unconfirmed or earlier one). */
export async function saveTotpSecret(db: Db, userId: number, secret: string, now: string): Promise<void> {
  await db
    .insertInto('totp_secrets')
    .values({ user_id: userId, secret, created_at: now, confirmed_at: null, last_step: 0 })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ secret, created_at: now, confirmed_at: null, last_step: 0 }))
    .execute();
}

export async function confirmTotpSecret(db: Db, userId: number, now: string): Promise<void> {
  await db.updateTable('totp_secrets').set({ confirmed_at: now }).where('user_id', '=', userId).execute();
}

/** Records the time step a code was accepted for, unless a code of that step or a later one was: true when recorded. */
export async function advanceTotpStep(db: Db, userId: number, step: number): Promise<boolean> {
  const result = await db
    .updateTable('totp_secrets')
    .set({ last_step: step })
    .where('user_id', '=', userId)
    .where('last_step', '<', step)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function deleteTwoFactor(db: Db, userId: number): Promise<void> {
  await db.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
  await db.deleteFrom('totp_secrets').where('user_id', '=', userId).execute();
}

export async function replaceRecoveryCodes(db: Db, userId: number, hashes: string[]): Promise<void> {
  await db.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
  await db
    .insertInto('recovery_codes')
    .values(hashes.map((code_hash) => ({ code_hash, user_id: userId, used_at: null })))
    .execute();
}

/** Uses a recovery code of this user once: true for the one caller that used it. */
export async function spendRecoveryCode(db: Db, userId: number, codeHash: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable('recovery_codes')
    .set({ used_at: now })
    .where('code_hash', '=', codeHash)
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function countUnusedRecoveryCodes(db: Db, userId: number): Promise<number> {
  const row = await db
    .selectFrom('recovery_codes')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(row?.count ?? 0);
}
