import { type FieldErrors, type ValidationResult } from './common.ts';
import { checkEmail, checkNewPassword, checkUsername } from './account.ts';
import { SETTINGS_LIMITS, SETTINGS_MESSAGES } from './settings.ts';

/** The first-run setup form (`/setup`, `POST /api/setup`): the owner's account and the site's title. */

export interface SetupValues {
  token: string;
  username: string;
  email: string;
  password: string;
  site_title: string;
}

export const SETUP_MESSAGES = {
  badLink: 'This setup link is not valid. Run `npm run admin -- --setup-link` on the server to see the current one.',
  ownerExists: 'This site already has an owner. Log in instead.',
  created: 'Your site is ready. You are signed in as its owner.',
} as const;

export function validateSetupInput(body: Record<string, unknown>): ValidationResult<SetupValues> {
  const errors: FieldErrors = {};
  const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');
  const values: SetupValues = {
    token: text(body.token),
    username: text(body.username),
    email: text(body.email),
    // Kept exactly as typed: spaces are part of a passphrase.
    password: typeof body.password === 'string' ? body.password : '',
    site_title: text(body.site_title).replace(/\s+/g, ' '),
  };
  const username = checkUsername(body.username);
  const email = checkEmail(body.email);
  const password = checkNewPassword(body.password);
  if (username) errors.username = username;
  if (email) errors.email = email;
  if (password) errors.password = password;
  if (values.site_title === '') errors.site_title = SETTINGS_MESSAGES.titleRequired;
  else if (values.site_title.length > SETTINGS_LIMITS.site_title) errors.site_title = SETTINGS_MESSAGES.titleTooLong;
  return { values, errors };
}
