import { EMAIL_MAX } from '../../shared/validation/account.ts';
import { requestPasswordReset } from '../../client/account-api.ts';
import { AuthForm, type AuthField } from './AuthForm.tsx';
import { ACCOUNT_PAGES } from '../../shared/site-map/paths.ts';

const FIELDS: AuthField<'email'>[] = [
  {
    name: 'email',
    label: 'Email',
    type: 'email',
    autoComplete: 'email',
    maxLength: EMAIL_MAX,
    help: 'We mail a link to reset your password to the address of your account.',
  },
];

/** "Forgot password?": asks for a reset link; the answer is the same whether or not the email has an account. */
export default function ForgotPasswordForm() {
  return (
    <AuthForm
      title="Reset your password"
      fields={FIELDS}
      send={requestPasswordReset}
      onSuccess={(answer) => ({ message: answer.message })}
      fallback="The reset link could not be requested. Please try again."
      submitLabel="Send reset link"
      switchLine={
        <>
          Remembered it? <a href={ACCOUNT_PAGES.login}>Log in</a>
        </>
      }
    />
  );
}
