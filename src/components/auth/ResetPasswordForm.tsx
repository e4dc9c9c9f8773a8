import { PASSWORD_MAX, PASSWORD_MIN } from '../../shared/validation/account.ts';
import { resetPassword } from '../../client/account-api.ts';
import { AuthForm, type AuthField } from './AuthForm.tsx';
import { ACCOUNT_PAGES } from '../../shared/site-map/paths.ts';

const FIELDS: AuthField<'password'>[] = [
  {
    name: 'password',
    label: 'New password',
    type: 'password',
    autoComplete: 'new-password',
    minLength: PASSWORD_MIN,
    maxLength: PASSWORD_MAX,
    help: `At least ${PASSWORD_MIN} characters.`,
  },
];

/** The form the mailed link opens: a new password, then to the login page (every session has ended). */
export default function ResetPasswordForm({ token }: { token: string }) {
  return (
    <AuthForm
      title="Choose a new password"
      fields={FIELDS}
      send={(values) => resetPassword({ token, password: values.password })}
      onSuccess={(answer) => ({ message: answer.message, redirectTo: ACCOUNT_PAGES.login, delayMs: 2500 })}
      fallback="The password could not be changed. Please try again."
      submitLabel="Set new password"
      switchLine={
        <>
          Link expired? <a href={ACCOUNT_PAGES.forgotPassword}>Ask for a new one</a>
        </>
      }
    />
  );
}
