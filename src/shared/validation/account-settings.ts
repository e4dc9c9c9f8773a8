import { checkEmail, checkNewPassword, PASSWORD_MAX } from './account.ts';
import type { FieldErrors, ValidationResult } from './common.ts';

/** The reader's own account screen (`/account`): each change asks for the current password. */

export interface ChangePasswordValues {
  current_password: string;
  new_password: string;
}

export interface ChangeEmailValues {
  email: string;
  current_password: string;
}

export interface DeleteAccountValues {
  current_password: string;
}

function checkCurrentPassword(value: unknown): string | null {
  if (typeof value !== 'string' || value === '') return 'Enter your current password.';
  if (value.length > PASSWORD_MAX) return `Password must be at most ${PASSWORD_MAX} characters.`;
  return null;
}

const asTyped = (value: unknown) => (typeof value === 'string' ? value : '');

export function validateChangePassword(body: Record<string, unknown>): ValidationResult<ChangePasswordValues> {
  const errors: FieldErrors = {};
  const current = checkCurrentPassword(body.current_password);
  if (current) errors.current_password = current;
  const fresh = checkNewPassword(body.new_password);
  if (fresh) errors.new_password = fresh.replace(/^Password/, 'New password');
  return { values: { current_password: asTyped(body.current_password), new_password: asTyped(body.new_password) }, errors };
}

export function validateChangeEmail(body: Record<string, unknown>): ValidationResult<ChangeEmailValues> {
  const errors: FieldErrors = {};
  const email = checkEmail(body.email);
  if (email) errors.email = email;
  const current = checkCurrentPassword(body.current_password);
  if (current) errors.current_password = current;
  return {
    values: { email: typeof body.email === 'string' ? body.email.trim() : '', current_password: asTyped(body.current_password) },
    errors,
  };
}

export function validateDeleteAccount(body: Record<string, unknown>): ValidationResult<DeleteAccountValues> {
  const errors: FieldErrors = {};
  const current = checkCurrentPassword(body.current_password);
  if (current) errors.current_password = current;
  return { values: { current_password: asTyped(body.current_password) }, errors };
}
