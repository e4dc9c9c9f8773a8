import type { AccountAnswer, TwoFactorEnrolment } from '../shared/account-types.ts';
import type { AccountPolicy } from '../shared/validation/account-policy.ts';
import { callJson } from './http.ts';

/**
 * The account-recovery and account-settings calls, beside api.ts (which holds the rest) and
 * through its one `callJson`, so requests and errors work the same way.
 */

export interface MessageAnswer {
  message: string;
}

export function requestPasswordReset(input: { email: string }): Promise<MessageAnswer> {
  return callJson('/api/users/forgot-password', { method: 'POST', json: input });
}

export function resetPassword(input: { token: string; password: string }): Promise<MessageAnswer> {
  return callJson('/api/users/reset-password', { method: 'POST', json: input });
}

export function getAccount(signal?: AbortSignal): Promise<AccountAnswer> {
  return callJson('/api/account', { signal });
}

export function changePassword(input: { current_password: string; new_password: string }): Promise<MessageAnswer> {
  return callJson('/api/account/password', { method: 'POST', json: input });
}

export function requestEmailChange(input: { email: string; current_password: string }): Promise<MessageAnswer> {
  return callJson('/api/account/email', { method: 'POST', json: input });
}

export function confirmEmailChange(input: { token: string }): Promise<MessageAnswer & { email: string }> {
  return callJson('/api/users/confirm-email', { method: 'POST', json: input });
}

export function endSession(id: string): Promise<{ current: boolean }> {
  return callJson(`/api/account/sessions/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

export function deleteAccount(input: { current_password: string }): Promise<MessageAnswer> {
  return callJson('/api/account', { method: 'DELETE', json: input });
}

export function getAccountPolicy(): Promise<AccountPolicy> {
  return callJson('/api/admin/account-policy');
}

export function saveAccountPolicy(input: AccountPolicy): Promise<AccountPolicy> {
  return callJson('/api/admin/account-policy', { method: 'PUT', json: input });
}

export function startTwoFactor(): Promise<TwoFactorEnrolment> {
  return callJson('/api/account/two-factor', { method: 'POST', json: {} });
}

export function confirmTwoFactor(input: { code: string }): Promise<MessageAnswer & { recovery_codes: string[] }> {
  return callJson('/api/account/two-factor/confirm', { method: 'POST', json: input });
}

export function turnOffTwoFactor(input: { current_password: string }): Promise<MessageAnswer> {
  return callJson('/api/account/two-factor', { method: 'DELETE', json: input });
}
