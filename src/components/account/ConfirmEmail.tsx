import { useState } from 'react';
import { confirmEmailChange } from '../../client/account-api.ts';
import { statedMessageOf } from '../../client/api.ts';
import MessageBanner from '../auth/MessageBanner.tsx';
import { ACCOUNT_PAGES } from '../../shared/site-map/paths.ts';

/**
 * The page an email link opens: a new email's (`change`) or a sign-up's (`signup`). It waits for
 * a click (not the page load), so a mail scanner that follows links does not confirm it.
 */
export default function ConfirmEmail({ token, kind = 'change' }: { token: string; kind?: 'change' | 'signup' }) {
  const [busy, setBusy] = useState(false);
  const [banner, setBanner] = useState<{ type: 'success' | 'error'; message: string } | null>(null);

  async function confirm() {
    setBusy(true);
    setBanner(null);
    try {
      setBanner({ type: 'success', message: (await confirmEmailChange({ token })).message });
    } catch (error) {
      setBanner({ type: 'error', message: statedMessageOf(error, 'The email could not be confirmed. Please try again.') });
      setBusy(false);
    }
  }

  return (
    <>
      {banner && <MessageBanner type={banner.type} message={banner.message} />}
      {banner?.type === 'success' ? (
        <p>
          {kind === 'signup' ? <a href={ACCOUNT_PAGES.login}>Log in</a> : <a href={ACCOUNT_PAGES.account}>Go to your account</a>}
        </p>
      ) : (
        <button type="button" className="button" onClick={() => void confirm()} disabled={busy} aria-busy={busy}>
          {kind === 'signup' ? 'Confirm my email' : 'Confirm my new email'}
        </button>
      )}
    </>
  );
}
