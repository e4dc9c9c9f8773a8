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
  /** The browser that logged in (its User-Agent, cut short), for the reader's list of sessions. */
  userAgent?: string | null;
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
      user_agent: session.userAgent ?? null,
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

/** An account's sessions, the most recently used first. */
export async function listUserSessions(db: Db, userId: number): Promise<SessionRecord[]> {
  const rows = await db
    .selectFrom('sessions')
    .select(['id', 'user_id', 'secret_hash', 'created_at', 'last_verified_at', 'user_agent'])
    .where('user_id', '=', userId)
    .orderBy('last_verified_at', 'desc')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    userId: row.user_id,
    secretHash: Buffer.from(row.secret_hash),
    createdAt: row.created_at,
    lastVerifiedAt: row.last_verified_at,
    userAgent: row.user_agent,
  }));
}

/** Ends one session of this account (never another account's): true when there was one. */
export async function deleteSessionOfUser(db: Db, userId: number, id: string): Promise<boolean> {
  const result = await db.deleteFrom('sessions').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function deleteOtherUserSessions(db: Db, userId: number, keepId: string | null): Promise<void> {
  let query = db.deleteFrom('sessions').where('user_id', '=', userId);
  if (keepId !== null) query = query.where('id', '!=', keepId);
  await query.execute();
}
