import {
  EMAIL_MAX,
  PASSWORD_MAX,
  PASSWORD_MIN,
  USERNAME_MAX,
  USERNAME_MIN,
  USERNAME_PATTERN,
} from '../../shared/validation/account.ts';
import { register } from '../../client/api.ts';
import { AuthForm, type AuthField } from './AuthForm.tsx';
import { ACCOUNT_PAGES } from '../../shared/site-map/paths.ts';

/** docs/product.md#limits-and-constants: the success message stays this long before going to /login. */
export const REGISTER_REDIRECT_MS = 2000;
const SUCCESS = 'Registration successful! Please log in.';
const FALLBACK = 'Registration failed. Please try again.';

// The constraints come from the rules the endpoint applies (src/shared/validation/account.ts).
const FIELDS: AuthField<'username' | 'email' | 'password'>[] = [
  {
    name: 'username',
    label: 'Username',
    autoComplete: 'username',
    minLength: USERNAME_MIN,
    maxLength: USERNAME_MAX,
    pattern: USERNAME_PATTERN,
    help: `${USERNAME_MIN} to ${USERNAME_MAX} letters, digits, dots, underscores or hyphens.`,
  },
  { name: 'email', label: 'Email', type: 'email', autoComplete: 'email', maxLength: EMAIL_MAX },
  {
    name: 'password',
    label: 'Password',
    type: 'password',
    autoComplete: 'new-password',
    minLength: PASSWORD_MIN,
    maxLength: PASSWORD_MAX,
    help: `At least ${PASSWORD_MIN} characters.`,
  },
];

/** The sign-up form. */
export default function RegisterForm() {
  return (
    <AuthForm
      title="Create an Account"
      fields={FIELDS}
      send={register}
      onSuccess={(answer) =>
        // With email verification on, the reader stays here with the server's word on the mailed link.
        answer.confirm_email
          ? { message: answer.message }
          : { message: SUCCESS, redirectTo: ACCOUNT_PAGES.login, delayMs: REGISTER_REDIRECT_MS }
      }
      fallback={FALLBACK}
      submitLabel="Register"
      switchLine={
        <>
          Already have an account? <a href={ACCOUNT_PAGES.login}>Log in</a>
        </>
      }
    />
  );
}
