import { useCallback, useEffect, useState } from 'react';
import { changePassword, deleteAccount, getAccount, requestEmailChange } from '../../client/account-api.ts';
import { EMAIL_MAX, PASSWORD_MAX, PASSWORD_MIN } from '../../shared/validation/account.ts';
import type { AccountAnswer } from '../../shared/account-types.ts';
import { clearAuth } from '../../stores/auth.ts';
import { AccountSection, type AccountField } from './AccountSection.tsx';
import { SessionsList } from './SessionsList.tsx';
import { TwoFactorSection } from './TwoFactorSection.tsx';
import { SITE_PAGES } from '../../shared/site-map/paths.ts';

const CURRENT: AccountField<'current_password'> = {
  name: 'current_password',
  label: 'Current password',
  type: 'password',
  autoComplete: 'current-password',
  maxLength: PASSWORD_MAX,
};

const PASSWORD_FIELDS: AccountField<'current_password' | 'new_password'>[] = [
  CURRENT,
  {
    name: 'new_password',
    label: 'New password',
    type: 'password',
    autoComplete: 'new-password',
    minLength: PASSWORD_MIN,
    maxLength: PASSWORD_MAX,
    help: `At least ${PASSWORD_MIN} characters.`,
  },
];

const EMAIL_FIELDS: AccountField<'email' | 'current_password'>[] = [
  { name: 'email', label: 'New email', type: 'email', autoComplete: 'email', maxLength: EMAIL_MAX },
  CURRENT,
];

/** `/account`: the signed-in reader's own account (the page shows it only to a signed-in reader). */
export default function AccountScreen() {
  const [account, setAccount] = useState<AccountAnswer | null>(null);
  const [failed, setFailed] = useState(false);

  const load = useCallback(() => {
    const controller = new AbortController();
    getAccount(controller.signal)
      .then((answer) => {
        setAccount(answer);
        setFailed(false);
      })
      .catch((error: unknown) => {
        if (!controller.signal.aborted) {
          console.error('The account could not be loaded', error);
          setFailed(true);
        }
      });
    return () => controller.abort();
  }, []);
  useEffect(load, [load]);

  if (failed) return <p role="alert">Your account could not be loaded. Reload the page to try again.</p>;
  if (!account)
    return (
      <p className="loading" role="status">
        Loading your account...
      </p>
    );

  return (
    <>
      <dl className="account-facts">
        <dt>Username</dt>
        <dd>{account.username}</dd>
        <dt>Email</dt>
        <dd>{account.email}</dd>
      </dl>
      <AccountSection
        title="Change password"
        fields={PASSWORD_FIELDS}
        submitLabel="Change password"
        send={changePassword}
        fallback="The password could not be changed. Please try again."
        onDone={load}
      />
      {account.mail ? (
        <AccountSection
          title="Change email"
          intro={<p>We send a link to the new address; your email changes once you open it.</p>}
          fields={EMAIL_FIELDS}
          submitLabel="Send confirmation link"
          send={requestEmailChange}
          fallback="The confirmation link could not be sent. Please try again."
        />
      ) : (
        <section className="account-section" aria-labelledby="account-email-title">
          <h2 id="account-email-title">Change email</h2>
          <p>This site does not send mail, so the email cannot be changed here. Ask the site owner.</p>
        </section>
      )}
      {account.is_admin && <TwoFactorSection on={account.two_factor} required={account.two_factor_required} onChange={load} />}
      <SessionsList sessions={account.sessions} onChange={load} />
      {account.is_admin ? (
        <section className="account-section" aria-labelledby="account-delete-title">
          <h2 id="account-delete-title">Delete account</h2>
          <p>An admin account cannot be deleted from here, so the site always keeps an owner.</p>
        </section>
      ) : (
        <AccountSection
          title="Delete account"
          intro={
            <p>
              This cannot be undone: your password is asked once more to be sure.{' '}
              {account.deleted_comments === 'remove'
                ? 'Your comments are deleted with your account.'
                : 'Your comments stay on the site, signed "deleted user".'}
            </p>
          }
          fields={[CURRENT]}
          submitLabel="Delete my account"
          danger
          send={async (values) => {
            const answer = await deleteAccount(values);
            clearAuth();
            window.setTimeout(() => window.location.assign(SITE_PAGES.home), 2500);
            return answer;
          }}
          fallback="The account could not be deleted. Please try again."
        />
      )}
    </>
  );
}
