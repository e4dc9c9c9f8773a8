import crypto from 'node:crypto';
import type { Db } from '../db/client.ts';
import { findUserByEmail, findUserByUsername, insertUser, updateUserPasswordAndRole } from '../db/repositories/users.ts';
import { hashPassword, verifyPassword } from './password.ts';
import { invalidateUserSessions } from './sessions.ts';

export interface AdminResult {
  email: string;
  action: 'created' | 'updated' | 'promoted' | 'unchanged';
  /** Set only when a password was generated; shown once and never stored in clear. */
  generatedPassword?: string;
}

function usernameFromEmail(email: string): string {
  return (email.split('@')[0] || 'admin').replace(/[^\w.-]/g, '').slice(0, 30) || 'admin';
}

/**
 * Creates the admin account, or promotes and re-keys an existing one. With no password given, an
 * existing account keeps its own and a new one gets a random password, returned to print once.
 * A real password change ends the account's sessions; the same password again (ADMIN_PASSWORD at
 * every start) changes nothing, so restarts do not log the admin out.
 */
export async function ensureAdmin(db: Db, email: string, password: string | undefined): Promise<AdminResult> {
  const existing = await findUserByEmail(db, email);
  if (existing) {
    const changePassword = password !== undefined && !(await verifyPassword(existing.password_hash, password));
    if (!changePassword && existing.is_admin === 1) return { email, action: 'unchanged' };
    await updateUserPasswordAndRole(db, existing.id, {
      isAdmin: true,
      ...(changePassword ? { passwordHash: await hashPassword(password) } : {}),
    });
    if (changePassword) await invalidateUserSessions(db, existing.id);
    return { email, action: changePassword ? 'updated' : 'promoted' };
  }
  const generated = password === undefined ? crypto.randomBytes(12).toString('base64url') : undefined;
  let username = usernameFromEmail(email);
  if (await findUserByUsername(db, username)) username = `${username}-${crypto.randomBytes(2).toString('hex')}`;
  await insertUser(db, { username, email, passwordHash: await hashPassword(password ?? generated!), isAdmin: true });
  return generated ? { email, action: 'created', generatedPassword: generated } : { email, action: 'created' };
}
