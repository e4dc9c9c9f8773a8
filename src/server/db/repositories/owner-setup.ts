import type { Db } from '../client.ts';

/** The first-run setup token (migration 0006): one row at most. */
export async function readSetupToken(db: Db): Promise<string | undefined> {
  const row = await db.selectFrom('owner_setup').select('token').where('id', '=', 1).executeTakeFirst();
  return row?.token;
}

/** Stores the token unless one exists; answers the stored one (two starts never make two links). */
export async function ensureSetupToken(db: Db, token: string, now = new Date().toISOString()): Promise<string> {
  await db
    .insertInto('owner_setup')
    .values({ id: 1, token, created_at: now })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
  return (await readSetupToken(db)) ?? token;
}

export async function deleteSetupToken(db: Db): Promise<void> {
  await db.deleteFrom('owner_setup').execute();
}
