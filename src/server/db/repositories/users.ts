import type { Db } from '../client.ts';
import type { UserRow } from '../schema.ts';

export type PublicUser = Pick<UserRow, 'id' | 'username' | 'email' | 'is_admin'>;

export function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
}

export function findUserByUsername(db: Db, username: string): Promise<PublicUser | undefined> {
  return db
    .selectFrom('users')
    .select(['id', 'username', 'email', 'is_admin'])
    .where('username', '=', username)
    .executeTakeFirst();
}

export function insertUser(
  db: Db,
  input: { username: string; email: string; passwordHash: string; isAdmin: boolean; emailUnconfirmed?: boolean },
): Promise<PublicUser> {
  return db
    .insertInto('users')
    .values({
      username: input.username,
      email: input.email,
      password_hash: input.passwordHash,
      is_admin: input.isAdmin ? 1 : 0,
      created_at: new Date().toISOString(),
      email_unconfirmed: input.emailUnconfirmed ? 1 : 0,
    })
    .returning(['id', 'username', 'email', 'is_admin'])
    .executeTakeFirstOrThrow();
}

export async function updateUserPasswordAndRole(
  db: Db,
  id: number,
  input: { passwordHash?: string; isAdmin?: boolean },
): Promise<void> {
  const set: { password_hash?: string; is_admin?: number } = {};
  if (input.passwordHash !== undefined) set.password_hash = input.passwordHash;
  if (input.isAdmin !== undefined) set.is_admin = input.isAdmin ? 1 : 0;
  if (Object.keys(set).length === 0) return;
  await db.updateTable('users').set(set).where('id', '=', id).execute();
}

/** The first admin account, or undefined when the site has none yet. */
export function findFirstAdmin(db: Db): Promise<PublicUser | undefined> {
  return db
    .selectFrom('users')
    .select(['id', 'username', 'email', 'is_admin'])
    .where('is_admin', '=', 1)
    .orderBy('id')
    .executeTakeFirst();
}

export async function updateUserPassword(db: Db, id: number, passwordHash: string): Promise<void> {
  await db.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', id).execute();
}

export function findUserById(db: Db, id: number): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function updateUserEmail(db: Db, id: number, email: string): Promise<void> {
  await db.updateTable('users').set({ email }).where('id', '=', id).execute();
}

/** Its sessions and links go with it (foreign keys cascade); its comments lose the link (set null). */
export async function deleteUser(db: Db, id: number): Promise<void> {
  await db.deleteFrom('users').where('id', '=', id).execute();
}

/** Where mail for the admins goes. */
export async function listAdminEmails(db: Db): Promise<string[]> {
  const rows = await db.selectFrom('users').select('email').where('is_admin', '=', 1).orderBy('id').execute();
  return rows.map((row) => row.email);
}

/** A reader who signed up under the email-verification setting and has not opened the link yet. */
export async function setEmailUnconfirmed(db: Db, id: number, unconfirmed: boolean): Promise<void> {
  await db
    .updateTable('users')
    .set({ email_unconfirmed: unconfirmed ? 1 : 0 })
    .where('id', '=', id)
    .execute();
}
