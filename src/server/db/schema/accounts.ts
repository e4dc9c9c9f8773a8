// Accounts: users, sessions, the first-run setup token, mailed links, two-factor sign-in, and the mail queue.
import type { Generated } from 'kysely';

export interface UsersTable {
  id: Generated<number>;
  username: string;
  email: string;
  password_hash: string;
  is_admin: Generated<number>;
  created_at: string;
  /** 1 until a reader who signed up under the email-verification setting opens the mailed link. */
  email_unconfirmed: Generated<number>;
}

export interface SessionsTable {
  id: string;
  user_id: number;
  secret_hash: Buffer;
  created_at: number;
  last_verified_at: number;
  user_agent: string | null;
}

/** The first-run setup token: one row at most, gone once the owner exists. */
export interface OwnerSetupTable {
  id: number;
  token: string;
  created_at: string;
}

export type MailStatus = 'queued' | 'sent' | 'failed';

export interface MailQueueTable {
  id: Generated<number>;
  to_address: string;
  subject: string;
  text_body: string;
  kind: string;
  status: Generated<MailStatus>;
  attempts: Generated<number>;
  next_attempt_at: string;
  claimed_until: string | null;
  last_error: string | null;
  created_at: string;
  sent_at: string | null;
}

export type AccountTokenPurpose = 'password_reset' | 'email_change' | 'email_verify';

export interface AccountTokensTable {
  token_hash: string;
  user_id: number;
  purpose: AccountTokenPurpose;
  new_email: string | null;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface TotpSecretsTable {
  user_id: number;
  secret: string;
  created_at: string;
  confirmed_at: string | null;
  last_step: Generated<number>;
}

export interface RecoveryCodesTable {
  code_hash: string;
  user_id: number;
  used_at: string | null;
}
