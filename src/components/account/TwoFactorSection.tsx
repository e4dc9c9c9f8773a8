import { useState } from 'react';
import { confirmTwoFactor, startTwoFactor, turnOffTwoFactor } from '../../client/account-api.ts';
import { statedMessageOf } from '../../client/api.ts';
import { PASSWORD_MAX } from '../../shared/validation/account.ts';
import type { TwoFactorEnrolment } from '../../shared/account-types.ts';
import MessageBanner from '../auth/MessageBanner.tsx';
import { AccountSection } from './AccountSection.tsx';

interface Props {
  on: boolean;
  required: boolean;
  onChange: () => void;
}

/**
 * `/account#two-factor` (admins): set up an authenticator app from a QR code the server drew,
 * confirm with a code, keep the recovery codes shown once; or turn it off with the password.
 */
export function TwoFactorSection({ on, required, onChange }: Props) {
  const [enrolment, setEnrolment] = useState<TwoFactorEnrolment | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function begin() {
    setBusy(true);
    setError(null);
    try {
      setEnrolment(await startTwoFactor());
    } catch (failure) {
      setError(statedMessageOf(failure, 'The set-up could not start. Please try again.'));
    } finally {
      setBusy(false);
    }
  }

  if (codes)
    return (
      <section className="account-section" id="two-factor" aria-labelledby="two-factor-title">
        <h2 id="two-factor-title">Two-factor sign-in</h2>
        <MessageBanner
          type="success"
          message="Two-factor sign-in is on. Keep these recovery codes somewhere safe: each works once, and they are not shown again."
        />
        <ul className="recovery-codes" aria-label="Recovery codes">
          {codes.map((code) => (
            <li key={code}>
              <code>{code}</code>
            </li>
          ))}
        </ul>
        <button
          type="button"
          className="button"
          onClick={() => {
            setCodes(null);
            setEnrolment(null);
            onChange();
          }}
        >
          I have saved them
        </button>
      </section>
    );

  if (on)
    return (
      <div id="two-factor">
        <AccountSection
          title="Two-factor sign-in"
          intro={<p>On: logging in asks for a code from your authenticator app (or a recovery code).</p>}
          fields={[
            {
              name: 'current_password',
              label: 'Current password',
              type: 'password',
              autoComplete: 'current-password',
              maxLength: PASSWORD_MAX,
            },
          ]}
          submitLabel="Turn off two-factor sign-in"
          send={turnOffTwoFactor}
          fallback="Two-factor sign-in could not be turned off. Please try again."
          onDone={onChange}
        />
      </div>
    );

  return (
    <div id="two-factor">
      {enrolment ? (
        <AccountSection
          title="Two-factor sign-in"
          intro={
            <>
              <p>Scan this code with an authenticator app, or type the key into it, then enter the 6 digits it shows.</p>
              {/* An SVG the server drew from the secret (the qrcode library): no outside service. */}
              <div
                className="totp-qr"
                role="img"
                aria-label="QR code of the two-factor key"
                dangerouslySetInnerHTML={{ __html: enrolment.qr_svg }}
              />
              <p>
                Key: <code className="totp-secret">{enrolment.secret}</code>
              </p>
            </>
          }
          fields={[
            {
              name: 'code',
              label: 'Code from the app',
              inputMode: 'numeric',
              autoComplete: 'one-time-code',
              maxLength: 6,
              pattern: '\\d{6}',
            },
          ]}
          submitLabel="Turn on two-factor sign-in"
          send={async (values) => {
            const answer = await confirmTwoFactor(values);
            setCodes(answer.recovery_codes);
            return answer;
          }}
          fallback="The code could not be checked. Please try again."
        />
      ) : (
        <section className="account-section" aria-labelledby="two-factor-title">
          <h2 id="two-factor-title">Two-factor sign-in</h2>
          {required && (
            <MessageBanner
              type="error"
              message="This site requires two-factor sign-in for admins: set it up to open the admin screens."
            />
          )}
          {error && <MessageBanner type="error" message={error} onClose={() => setError(null)} />}
          <p>Off. With it on, logging in also asks for a code from an authenticator app on your phone.</p>
          <button type="button" className="button" onClick={() => void begin()} disabled={busy} aria-busy={busy}>
            Set up two-factor sign-in
          </button>
        </section>
      )}
    </div>
  );
}
