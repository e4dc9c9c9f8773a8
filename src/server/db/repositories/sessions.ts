import type { Db } from '../client.ts';
import type { PublicUser } from './users.ts';

/**
 * Sessions: `secret_hash` is SHA-256 of the token's secret (the token itself is never stored);
 * `created_at` and `last_verified_at` are Unix times in milliseconds.
 */
export interface SessionRecord {
  id: string;
  userId: number;
  secretHash: Buffer;
  createdAt: number;
  lastVerifiedAt: number;
}

export interface SessionWithUser {
  session: SessionRecord;
  user: PublicUser;
}

export async function insertSession(db: Db, session: SessionRecord): Promise<void> {
  await db
    .insertInto('sessions')
    .values({
      id: session.id,
      user_id: session.userId,
      secret_hash: session.secretHash,
      created_at: session.createdAt,
      last_verified_at: session.lastVerifiedAt,
    })
    .execute();
}

/** One query: the session and its user, so every request costs a single lookup. */
export async function findSessionWithUser(db: Db, id: string): Promise<SessionWithUser | undefined> {
  const row = await db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select([
      'sessions.id as session_id',
      'sessions.user_id',
      'sessions.secret_hash',
      'sessions.created_at',
      'sessions.last_verified_at',
      'users.username',
      'users.email',
      'users.is_admin',
    ])
    .where('sessions.id', '=', id)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    session: {
      id: row.session_id,
      userId: row.user_id,
      secretHash: Buffer.from(row.secret_hash),
      createdAt: row.created_at,
      lastVerifiedAt: row.last_verified_at,
    },
    user: { id: row.user_id, username: row.username, email: row.email, is_admin: row.is_admin },
  };
}

export async function touchSession(db: Db, id: string, lastVerifiedAt: number): Promise<void> {
  await db.updateTable('sessions').set({ last_verified_at: lastVerifiedAt }).where('id', '=', id).execute();
}

export async function deleteSession(db: Db, id: string): Promise<void> {
  await db.deleteFrom('sessions').where('id', '=', id).execute();
}

export async function deleteUserSessions(db: Db, userId: number): Promise<void> {
  await db.deleteFrom('sessions').where('user_id', '=', userId).execute();
}

/** Removes sessions past either limit; returns how many went. */
export async function deleteExpiredSessions(db: Db, input: { inactiveBefore: number; createdBefore: number }): Promise<number> {
  const result = await db
    .deleteFrom('sessions')
    .where((eb) => eb.or([eb('last_verified_at', '<=', input.inactiveBefore), eb('created_at', '<=', input.createdBefore)]))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
