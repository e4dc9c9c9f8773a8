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
import { TextField } from '../forms/TextField.tsx';
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
      <TextField
        variant="auth"
        id={`${id}-username`}
        label="Username"
        name="username"
        autoComplete="username"
        required
        minLength={USERNAME_MIN}
        maxLength={USERNAME_MAX}
        pattern={USERNAME_PATTERN}
        help={`${USERNAME_MIN} to ${USERNAME_MAX} letters, digits, dots, underscores or hyphens.`}
        value={username}
        onChange={(e) => setUsername(e.target.value)}
      />
      <TextField
        variant="auth"
        id={`${id}-email`}
        label="Email"
        name="email"
        type="email"
        autoComplete="email"
        required
        maxLength={EMAIL_MAX}
        value={email}
        onChange={(e) => setEmail(e.target.value)}
      />
      <TextField
        variant="auth"
        id={`${id}-password`}
        label="Password"
        name="password"
        type="password"
        autoComplete="new-password"
        required
        minLength={PASSWORD_MIN}
        maxLength={PASSWORD_MAX}
        help={`At least ${PASSWORD_MIN} characters.`}
        value={password}
        onChange={(e) => setPassword(e.target.value)}
      />
      <button type="submit" className="button auth-submit" disabled={!hydrated || busy} aria-busy={busy}>
        Register
      </button>
      <p className="auth-switch">
        Already have an account? <a href="/login">Log in</a>
      </p>
    </form>
  );
}
