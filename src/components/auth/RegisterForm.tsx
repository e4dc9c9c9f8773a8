import { useId, useState } from 'react';
import {
  EMAIL_MAX,
  PASSWORD_MAX,
  PASSWORD_MIN,
  USERNAME_MAX,
  USERNAME_MIN,
  USERNAME_PATTERN,
} from '../../shared/validation/account.ts';
import { register } from '../../client/api.ts';
import { useHydrated } from '../islands/use-hydrated.ts';
import MessageBanner from './MessageBanner.tsx';
import { useAuthSubmit } from './use-auth-submit.ts';

/** SPEC.md section 9: the success message stays this long before going to /login. */
export const REGISTER_REDIRECT_MS = 2000;
const SUCCESS = 'Registration successful! Please log in.';
const FALLBACK = 'Registration failed. Please try again.';

/** The sign-up form; its constraints come from the rules the endpoint applies (src/shared/validation/account.ts). */
export default function RegisterForm() {
  const id = useId();
  const hydrated = useHydrated();
  const [username, setUsername] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { busy, banner, closeBanner, onSubmit } = useAuthSubmit({
    send: () => register({ username, email, password }),
    onSuccess: () => ({ message: SUCCESS, redirectTo: '/login', delayMs: REGISTER_REDIRECT_MS }),
    fallback: FALLBACK,
  });

  return (
    <form className="auth-form" method="post" onSubmit={onSubmit}>
      <h1>Create an Account</h1>
      <div>
        {banner && (
          <MessageBanner
            type={banner.type}
            message={banner.message}
            {...(banner.type === 'error' ? { onClose: closeBanner } : {})}
          />
        )}
      </div>
      <div className="form-field">
        <label htmlFor={`${id}-username`}>Username</label>
        <input
          id={`${id}-username`}
          name="username"
          autoComplete="username"
          required
          minLength={USERNAME_MIN}
          maxLength={USERNAME_MAX}
          pattern={USERNAME_PATTERN}
          aria-describedby={`${id}-username-hint`}
          value={username}
          onChange={(e) => setUsername(e.target.value)}
        />
        <small id={`${id}-username-hint`} className="form-hint">
          {USERNAME_MIN} to {USERNAME_MAX} letters, digits, dots, underscores or hyphens.
        </small>
      </div>
      <div className="form-field">
        <label htmlFor={`${id}-email`}>Email</label>
        <input
          id={`${id}-email`}
          name="email"
          type="email"
          autoComplete="email"
          required
          maxLength={EMAIL_MAX}
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
      </div>
      <div className="form-field">
        <label htmlFor={`${id}-password`}>Password</label>
        <input
          id={`${id}-password`}
          name="password"
          type="password"
          autoComplete="new-password"
          required
          minLength={PASSWORD_MIN}
          maxLength={PASSWORD_MAX}
          aria-describedby={`${id}-password-hint`}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        <small id={`${id}-password-hint`} className="form-hint">
          At least {PASSWORD_MIN} characters.
        </small>
      </div>
      <button type="submit" className="button auth-submit" disabled={!hydrated || busy} aria-busy={busy}>
        Register
      </button>
      <p className="auth-switch">
        Already have an account? <a href="/login">Log in</a>
      </p>
    </form>
  );
}
