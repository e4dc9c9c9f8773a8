import { checkEmail, checkNewPassword } from './account.ts';
import type { FieldErrors, ValidationResult } from './common.ts';

/** The "Forgot password?" form and the new-password form its mailed link opens. */

export interface ForgotPasswordValues {
  email: string;
}

export interface ResetPasswordValues {
  token: string;
  password: string;
}

// The links carry 32 random bytes in base64url (43 characters); anything else is not one of ours.
export const ACCOUNT_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export function validateForgotPassword(body: Record<string, unknown>): ValidationResult<ForgotPasswordValues> {
  const errors: FieldErrors = {};
  const email = checkEmail(body.email);
  if (email) errors.email = email;
  return { values: { email: typeof body.email === 'string' ? body.email.trim() : '' }, errors };
}

export function validateResetPassword(body: Record<string, unknown>): ValidationResult<ResetPasswordValues> {
  const errors: FieldErrors = {};
  const token = typeof body.token === 'string' ? body.token : '';
  if (!ACCOUNT_TOKEN_PATTERN.test(token)) errors.token = 'This reset link is not valid. Ask for a new one.';
  const password = checkNewPassword(body.password);
  if (password) errors.password = password;
  return { values: { token, password: typeof body.password === 'string' ? body.password : '' }, errors };
}
