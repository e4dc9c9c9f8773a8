import { callJson } from './api.ts';

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
