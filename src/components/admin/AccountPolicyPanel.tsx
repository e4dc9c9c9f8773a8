import { useEffect, useState, type SubmitEvent } from 'react';
import { getAccountPolicy, saveAccountPolicy } from '../../client/account-api.ts';
import { statedMessageOf } from '../../client/api.ts';
import type { AccountPolicy, DeletedCommentsChoice } from '../../shared/validation/account-policy.ts';

const CHOICES: Array<{ value: DeletedCommentsChoice; label: string }> = [
  { value: 'rename', label: 'Keep them, signed "deleted user"' },
  { value: 'remove', label: 'Remove them' },
];

/** /admin/settings, "Accounts": what deleting an account does to its comments; two-factor sign-in required of admins. */
export default function AccountPolicyPanel() {
  const [policy, setPolicy] = useState<AccountPolicy | null>(null);
  const [state, setState] = useState<'loading' | 'failed' | 'ready' | 'saving'>('loading');
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);

  useEffect(() => {
    getAccountPolicy()
      .then((loaded) => {
        setPolicy(loaded);
        setState('ready');
      })
      .catch(() => setState('failed'));
  }, []);

  async function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!policy) return;
    setState('saving');
    setMessage(null);
    try {
      setPolicy(await saveAccountPolicy(policy));
      setMessage({ ok: true, text: 'Saved.' });
    } catch (error) {
      setMessage({ ok: false, text: statedMessageOf(error, 'The setting could not be saved. Please try again.') });
    } finally {
      setState('ready');
    }
  }

  return (
    <section className="admin-card" aria-labelledby="account-policy-heading">
      <h2 id="account-policy-heading">Accounts</h2>
      {state === 'loading' && (
        <p className="loading" role="status">
          Loading...
        </p>
      )}
      {state === 'failed' && <p role="alert">This setting could not be loaded. Reload the page to try again.</p>}
      {policy && (
        <form className="admin-form" onSubmit={onSubmit} aria-busy={state === 'saving'}>
          <fieldset className="field toggle">
            <legend>When a reader deletes their account, their comments:</legend>
            {CHOICES.map((choice) => (
              <label key={choice.value}>
                <input
                  type="radio"
                  name="deleted_comments"
                  value={choice.value}
                  checked={policy.deleted_comments === choice.value}
                  onChange={() => setPolicy({ ...policy, deleted_comments: choice.value })}
                />{' '}
                {choice.label}
              </label>
            ))}
          </fieldset>
          <div className="field">
            <label>
              <input
                type="checkbox"
                checked={policy.require_admin_2fa}
                onChange={(event) => setPolicy({ ...policy, require_admin_2fa: event.target.checked })}
              />{' '}
              Require two-factor sign-in for every admin
            </label>
            <p className="field-help">
              An admin without it must set it up on their account page before the admin screens open. Set it up for your own
              account first.
            </p>
          </div>
          <div className="field">
            <label>
              <input
                type="checkbox"
                checked={policy.verify_reader_email}
                onChange={(event) => setPolicy({ ...policy, verify_reader_email: event.target.checked })}
              />{' '}
              New readers confirm their email before they can log in
            </label>
            <p className="field-help">
              A link is mailed when a reader signs up. Readers who signed up before keep logging in as they do. Needs mail (see
              Mail above).
            </p>
          </div>
          <div className="field">
            <label>
              <input
                type="checkbox"
                checked={policy.moderation_digest}
                onChange={(event) => setPolicy({ ...policy, moderation_digest: event.target.checked })}
              />{' '}
              Mail the admins when comments wait for moderation
            </label>
            <p className="field-help">At most one mail an hour, saying how many comments wait. Needs mail (see Mail above).</p>
          </div>
          <div className="form-actions">
            <button type="submit" className="btn btn-primary" disabled={state === 'saving'}>
              Save account settings
            </button>
            {message && (
              <span role={message.ok ? 'status' : 'alert'} className={message.ok ? undefined : 'field-error'}>
                {message.text}
              </span>
            )}
          </div>
        </form>
      )}
    </section>
  );
}
