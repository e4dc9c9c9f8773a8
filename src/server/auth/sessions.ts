import crypto from 'node:crypto';
import type { Db } from '../db/client.ts';
import type { PublicUser } from '../db/repositories/users.ts';
import {
  deleteExpiredSessions,
  deleteSession,
  deleteUserSessions,
  findSessionWithUser,
  insertSession,
  touchSession,
  type SessionRecord,
} from '../db/repositories/sessions.ts';

/**
 * Sessions after Lucia's current design (lucia-auth.com, without the deprecated package):
 * the token is `<id>.<secret>`; the id finds the row, only SHA-256(secret) is stored and compared
 * in constant time, so a leaked database yields no usable token. The same token is the HttpOnly
 * cookie and the Bearer token of API clients.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export interface SessionPolicy {
  /** A session unused this long ends (sliding expiry). */
  inactivityMs: number;
  /** No session lives longer than this, however active (ASVS 7.3.2). */
  absoluteMs: number;
  /** `last_verified_at` is written at most this often, so most requests only read. */
  touchIntervalMs: number;
}

export const DEFAULT_SESSION_POLICY: SessionPolicy = { inactivityMs: 10 * DAY, absoluteMs: 30 * DAY, touchIntervalMs: HOUR };

export interface SessionOptions {
  /** Milliseconds since the epoch; tests pass a fake clock. */
  now?: () => number;
  policy?: SessionPolicy;
}

export interface ValidSession {
  session: SessionRecord;
  user: PublicUser;
}

const ID_BYTES = 12;
const SECRET_BYTES = 32;
// base64url lengths of the byte counts above; anything else is rejected before touching the database.
const TOKEN_PATTERN = /^([A-Za-z0-9_-]{16})\.([A-Za-z0-9_-]{43})$/;

function hashSecret(secret: string): Buffer {
  return crypto.createHash('sha256').update(secret).digest();
}

export function parseSessionToken(token: string): { id: string; secret: string } | null {
  const match = TOKEN_PATTERN.exec(token);
  return match ? { id: match[1]!, secret: match[2]! } : null;
}

export async function createSession(
  db: Db,
  userId: number,
  options: SessionOptions & { userAgent?: string | null } = {},
): Promise<{ token: string; session: SessionRecord }> {
  const now = (options.now ?? Date.now)();
  const id = crypto.randomBytes(ID_BYTES).toString('base64url');
  const secret = crypto.randomBytes(SECRET_BYTES).toString('base64url');
  const userAgent = options.userAgent ? options.userAgent.slice(0, 300) : null;
  const session: SessionRecord = { id, userId, secretHash: hashSecret(secret), createdAt: now, lastVerifiedAt: now, userAgent };
  await insertSession(db, session);
  return { token: `${id}.${secret}`, session };
}

export function isSessionExpired(session: SessionRecord, now: number, policy: SessionPolicy = DEFAULT_SESSION_POLICY): boolean {
  return now - session.lastVerifiedAt >= policy.inactivityMs || now - session.createdAt >= policy.absoluteMs;
}

/**
 * The session and its user for a token, or null. An expired session is deleted when seen; a live
 * one has its inactivity clock pushed back (at most once per touch interval).
 */
export async function validateSessionToken(db: Db, token: string, options: SessionOptions = {}): Promise<ValidSession | null> {
  const parsed = parseSessionToken(token);
  if (!parsed) return null;
  const found = await findSessionWithUser(db, parsed.id);
  if (!found) return null;
  const given = hashSecret(parsed.secret);
  if (found.session.secretHash.length !== given.length || !crypto.timingSafeEqual(found.session.secretHash, given)) return null;

  const policy = options.policy ?? DEFAULT_SESSION_POLICY;
  const now = (options.now ?? Date.now)();
  if (isSessionExpired(found.session, now, policy)) {
    await deleteSession(db, found.session.id);
    return null;
  }
  if (now - found.session.lastVerifiedAt >= policy.touchIntervalMs) {
    await touchSession(db, found.session.id, now);
    found.session.lastVerifiedAt = now;
  }
  return found;
}

export function invalidateSession(db: Db, sessionId: string): Promise<void> {
  return deleteSession(db, sessionId);
}

export function invalidateUserSessions(db: Db, userId: number): Promise<void> {
  return deleteUserSessions(db, userId);
}

/** Housekeeping for sessions nobody presents again (those that are presented are deleted on sight). */
export function purgeExpiredSessions(db: Db, options: SessionOptions = {}): Promise<number> {
  const policy = options.policy ?? DEFAULT_SESSION_POLICY;
  const now = (options.now ?? Date.now)();
  return deleteExpiredSessions(db, { inactiveBefore: now - policy.inactivityMs, createdBefore: now - policy.absoluteMs });
}
