import crypto from 'node:crypto';
import type { Db } from '../db/client.ts';
import { findUserByEmail, insertUser, updateUserPasswordAndRole } from '../db/repositories/users.ts';
import { hashPassword } from './password.ts';

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
 */
export async function ensureAdmin(db: Db, email: string, password: string | undefined): Promise<AdminResult> {
  const existing = await findUserByEmail(db, email);
  if (existing) {
    if (password === undefined && existing.is_admin === 1) return { email, action: 'unchanged' };
    await updateUserPasswordAndRole(db, existing.id, {
      isAdmin: true,
      ...(password !== undefined ? { passwordHash: await hashPassword(password) } : {}),
    });
    return { email, action: password !== undefined ? 'updated' : 'promoted' };
  }
  const generated = password === undefined ? crypto.randomBytes(12).toString('base64url') : undefined;
  let username = usernameFromEmail(email);
  const taken = await db.selectFrom('users').select('id').where('username', '=', username).executeTakeFirst();
  if (taken) username = `${username}-${crypto.randomBytes(2).toString('hex')}`;
  await insertUser(db, { username, email, passwordHash: await hashPassword(password ?? generated!), isAdmin: true });
  return generated ? { email, action: 'created', generatedPassword: generated } : { email, action: 'created' };
}
