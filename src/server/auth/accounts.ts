import type { Db } from '../db/client.ts';
import { findUserByEmail, findUserByUsername, insertUser, type PublicUser } from '../db/repositories/users.ts';
import { AppError } from '../errors.ts';
import { hashPassword, verifyAgainstDummy, verifyPassword } from './password.ts';
import type { LoginValues, RegistrationValues } from '../../shared/validation/account.ts';

/** Registration and password login. Input arrives already checked by src/shared/validation/account.ts. */

function conflict(field: 'email' | 'username'): AppError {
  return field === 'email'
    ? new AppError('conflict', 'That email is already registered.', { fields: { email: 'That email is already registered.' } })
    : new AppError('conflict', 'That username is taken.', { fields: { username: 'That username is taken.' } });
}

function isUniqueViolation(error: unknown): error is Error & { message: string } {
  return error instanceof Error && (error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE';
}

/** Creates a reader account; never an admin (admins come from ADMIN_EMAIL or `npm run admin`). */
export async function registerAccount(
  db: Db,
  input: RegistrationValues,
  options: { emailUnconfirmed?: boolean } = {},
): Promise<PublicUser> {
  // Both columns compare without case (collate nocase), so "Ann@X.org" finds "ann@x.org".
  if (await findUserByEmail(db, input.email)) throw conflict('email');
  if (await findUserByUsername(db, input.username)) throw conflict('username');
  const passwordHash = await hashPassword(input.password);
  try {
    return await insertUser(db, {
      username: input.username,
      email: input.email,
      passwordHash,
      isAdmin: false,
      emailUnconfirmed: options.emailUnconfirmed ?? false,
    });
  } catch (error) {
    // Two sign-ups racing for the same name: the unique index decides.
    if (isUniqueViolation(error)) throw conflict(error.message.includes('users.email') ? 'email' : 'username');
    throw error;
  }
}

/**
 * The user whose email and password match, or null. An unknown email still costs one argon2
 * verify, so a caller cannot tell it from a wrong password by the time it takes.
 */
export async function authenticateWithPassword(db: Db, input: LoginValues): Promise<PublicUser | null> {
  const user = await findUserByEmail(db, input.email);
  if (!user) return verifyAgainstDummy(input.password).then(() => null);
  if (!(await verifyPassword(user.password_hash, input.password))) return null;
  return { id: user.id, username: user.username, email: user.email, is_admin: user.is_admin };
}
