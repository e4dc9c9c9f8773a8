import { useId, useState } from 'react';
import { setSignedIn } from '../../stores/auth.ts';
import { PASSWORD_MAX } from '../../shared/validation/account.ts';
import { login } from '../../client/api.ts';
import { useHydrated } from '../islands/use-hydrated.ts';
import { TextField } from '../forms/TextField.tsx';
import MessageBanner from './MessageBanner.tsx';
import { useAuthSubmit } from './use-auth-submit.ts';

/** SPEC.md section 9: the success message stays this long before the redirect. */
export const LOGIN_REDIRECT_MS = 1000;
const FALLBACK = 'Login failed. Please check your credentials.';

/**
 * The login form. The session lives in the HttpOnly cookie the server sets; this island keeps
 * only the display state (username, admin flag) and never the token.
 */
export default function LoginForm() {
  const id = useId();
  const hydrated = useHydrated();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { busy, banner, closeBanner, onSubmit } = useAuthSubmit({
    send: () => login({ email, password }),
    onSuccess: (answer) => {
      setSignedIn(answer.username, answer.is_admin);
      return { message: 'Login Successful!', redirectTo: answer.is_admin ? '/admin' : '/', delayMs: LOGIN_REDIRECT_MS };
    },
    fallback: FALLBACK,
  });

  return (
    <form className="auth-form" method="post" onSubmit={onSubmit}>
      <h1>Welcome Back!</h1>
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
        id={`${id}-email`}
        label="Email"
        name="email"
        type="email"
        autoComplete="email"
        required
        value={email}
        onChange={(e) => setEmail(e.target.value)}
      />
      <TextField
        variant="auth"
        id={`${id}-password`}
        label="Password"
        name="password"
        type="password"
        autoComplete="current-password"
        required
        maxLength={PASSWORD_MAX}
        value={password}
        onChange={(e) => setPassword(e.target.value)}
      />
      <p className="auth-aside">
        {/* SPEC.md section 2: the link is there but password reset is not offered. */}
        <a href="#" aria-disabled="true" aria-describedby={`${id}-reset-note`} onClick={(e) => e.preventDefault()}>
          Forgot password?
        </a>
        <span id={`${id}-reset-note`} className="visually-hidden">
          Password reset is not available.
        </span>
      </p>
      <button type="submit" className="button auth-submit" disabled={!hydrated || busy} aria-busy={busy}>
        Log In
      </button>
      <p className="auth-switch">
        Don&apos;t have an account? <a href="/register">Sign up now</a>
      </p>
    </form>
  );
}
