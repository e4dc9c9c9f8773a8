import { setSignedIn } from '../../stores/auth.ts';
import { PASSWORD_MAX } from '../../shared/validation/account.ts';
import { useState } from 'react';
import { ApiError, login } from '../../client/api.ts';
import { AuthForm, type AuthField } from './AuthForm.tsx';
import { ACCOUNT_PAGES, ADMIN_HOME, SITE_PAGES } from '../../shared/site-map/paths.ts';

/** docs/product.md#limits-and-constants: the success message stays this long before the redirect. */
export const LOGIN_REDIRECT_MS = 1000;
const FALLBACK = 'Login failed. Please check your credentials.';

const FIELDS: AuthField<'email' | 'password' | 'code'>[] = [
  { name: 'email', label: 'Email', type: 'email', autoComplete: 'email' },
  { name: 'password', label: 'Password', type: 'password', autoComplete: 'current-password', maxLength: PASSWORD_MAX },
];

// Shown once the server says the account signs in with a second factor.
const CODE_FIELD: AuthField<'code'> = {
  name: 'code',
  label: 'Authentication code',
  autoComplete: 'one-time-code',
  inputMode: 'text',
  maxLength: 64,
  help: 'The 6 digits your authenticator app shows, or one of your recovery codes.',
};

/**
 * The login form. The session lives in the HttpOnly cookie the server sets; this island keeps
 * only the display state (username, admin flag) and never the token. `resetOffered`: the site
 * sends mail, so "Forgot password?" leads to the reset form.
 */
export default function LoginForm({ resetOffered = false }: { resetOffered?: boolean }) {
  const [needsCode, setNeedsCode] = useState(false);
  return (
    <AuthForm
      title="Welcome Back!"
      fields={needsCode ? [...FIELDS, CODE_FIELD] : FIELDS}
      send={async (values) => {
        try {
          return await login({ email: values.email, password: values.password, ...(needsCode ? { code: values.code } : {}) });
        } catch (error) {
          if (error instanceof ApiError && error.code === 'second_factor_required') setNeedsCode(true);
          throw error;
        }
      }}
      onSuccess={(answer) => {
        setSignedIn(answer.username, answer.is_admin);
        return {
          message: 'Login Successful!',
          redirectTo: answer.is_admin ? ADMIN_HOME : SITE_PAGES.home,
          delayMs: LOGIN_REDIRECT_MS,
        };
      }}
      fallback={FALLBACK}
      submitLabel="Log In"
      aside={(id) =>
        resetOffered ? (
          <p className="auth-aside">
            <a href={ACCOUNT_PAGES.forgotPassword}>Forgot password?</a>
          </p>
        ) : (
          <p className="auth-aside">
            {/* docs/product.md#public-screens: without mail (no SMTP_URL) the link is there but goes nowhere. */}
            <a href="#" aria-disabled="true" aria-describedby={`${id}-reset-note`} onClick={(e) => e.preventDefault()}>
              Forgot password?
            </a>
            <span id={`${id}-reset-note`} className="visually-hidden">
              Password reset is not available.
            </span>
          </p>
        )
      }
      switchLine={
        <>
          Don&apos;t have an account? <a href={ACCOUNT_PAGES.register}>Sign up now</a>
        </>
      }
    />
  );
}
