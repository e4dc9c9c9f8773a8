import { setSignedIn } from '../../stores/auth.ts';
import {
  EMAIL_MAX,
  PASSWORD_MAX,
  PASSWORD_MIN,
  USERNAME_MAX,
  USERNAME_MIN,
  USERNAME_PATTERN,
} from '../../shared/validation/account.ts';
import { SETTINGS_LIMITS } from '../../shared/validation/settings.ts';
import { completeSetup } from '../../client/api.ts';
import { AuthForm, type AuthField } from './AuthForm.tsx';

const FALLBACK = 'The site could not be set up. Please try again.';

// The constraints come from the rules the endpoint applies (src/shared/validation/setup.ts).
const FIELDS: AuthField<'username' | 'email' | 'password' | 'site_title'>[] = [
  {
    name: 'username',
    label: 'Your name',
    autoComplete: 'username',
    minLength: USERNAME_MIN,
    maxLength: USERNAME_MAX,
    pattern: USERNAME_PATTERN,
    help: `Shown as the author of your articles: ${USERNAME_MIN} to ${USERNAME_MAX} letters, digits, dots, underscores or hyphens.`,
  },
  { name: 'email', label: 'Email', type: 'email', autoComplete: 'email', maxLength: EMAIL_MAX, help: 'You log in with it.' },
  {
    name: 'password',
    label: 'Password',
    type: 'password',
    autoComplete: 'new-password',
    minLength: PASSWORD_MIN,
    maxLength: PASSWORD_MAX,
    help: `At least ${PASSWORD_MIN} characters.`,
  },
  {
    name: 'site_title',
    label: 'Site title',
    maxLength: SETTINGS_LIMITS.site_title,
    help: 'The name readers see on every page. You can change it later in Settings.',
  },
];

/** The first-run setup: the owner's account and the site's title; signs the owner in and opens the settings. */
export default function SetupForm({ token }: { token: string }) {
  return (
    <AuthForm
      title="Set up your site"
      fields={FIELDS}
      send={(values) => completeSetup({ ...values, token })}
      onSuccess={(answer) => {
        setSignedIn(answer.username, true);
        return { message: answer.message, redirectTo: '/admin/settings', delayMs: 1000 };
      }}
      fallback={FALLBACK}
      submitLabel="Create my account"
      switchLine={<>This page works once, while the site has no admin.</>}
    />
  );
}
