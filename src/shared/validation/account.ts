import { type FieldErrors, type ValidationResult } from './common.ts';

/**
 * Account input rules, shared by the login/register forms (for their HTML constraints) and the
 * endpoints, and by the admin script. Pure: no Node APIs, so the browser bundle can import it.
 */
export const USERNAME_MIN = 3;
export const USERNAME_MAX = 30;
export const USERNAME_PATTERN = '[A-Za-z0-9._\\-]+';
export const EMAIL_MAX = 254;
export const PASSWORD_MIN = 8;
// A cap keeps argon2 from hashing megabytes on request; 256 characters is far beyond any passphrase.
export const PASSWORD_MAX = 256;

const USERNAME_RE = new RegExp(`^${USERNAME_PATTERN}$`);
const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export interface RegistrationValues {
  username: string;
  email: string;
  password: string;
}

export interface LoginValues {
  email: string;
  password: string;
}

export function checkUsername(value: unknown): string | null {
  if (typeof value !== 'string' || value.trim() === '') return 'Username is required.';
  const name = value.trim();
  if (name.length < USERNAME_MIN || name.length > USERNAME_MAX || !USERNAME_RE.test(name)) {
    return `Username must be ${USERNAME_MIN} to ${USERNAME_MAX} characters: letters, digits, dots, underscores or hyphens.`;
  }
  return null;
}

export function checkEmail(value: unknown): string | null {
  if (typeof value !== 'string' || value.trim() === '') return 'Email is required.';
  const email = value.trim();
  if (email.length > EMAIL_MAX || !EMAIL_RE.test(email)) return 'Enter a valid email address.';
  return null;
}

export function checkNewPassword(value: unknown): string | null {
  if (typeof value !== 'string' || value === '') return 'Password is required.';
  if (value.length < PASSWORD_MIN) return `Password must be at least ${PASSWORD_MIN} characters.`;
  if (value.length > PASSWORD_MAX) return `Password must be at most ${PASSWORD_MAX} characters.`;
  return null;
}

const trimmed = (value: unknown) => (typeof value === 'string' ? value.trim() : '');
// The password is kept exactly as typed: spaces are part of a passphrase.
const asTyped = (value: unknown) => (typeof value === 'string' ? value : '');

/** Registration: every other field in the body (is_admin included) is ignored. Errors in form order. */
export function validateRegistration(body: Record<string, unknown>): ValidationResult<RegistrationValues> {
  const errors: FieldErrors = {};
  const username = checkUsername(body.username);
  const email = checkEmail(body.email);
  const password = checkNewPassword(body.password);
  if (username) errors.username = username;
  if (email) errors.email = email;
  if (password) errors.password = password;
  return { values: { username: trimmed(body.username), email: trimmed(body.email), password: asTyped(body.password) }, errors };
}

/** Login only checks shape: the password rules of today must not lock out older accounts. */
export function validateLogin(body: Record<string, unknown>): ValidationResult<LoginValues> {
  const errors: FieldErrors = {};
  const emailError = checkEmail(body.email);
  if (emailError) errors.email = emailError;
  if (typeof body.password !== 'string' || body.password === '') errors.password = 'Password is required.';
  else if (body.password.length > PASSWORD_MAX) errors.password = `Password must be at most ${PASSWORD_MAX} characters.`;
  return { values: { email: trimmed(body.email), password: asTyped(body.password) }, errors };
}
