import { useState } from 'react';
import { endSession } from '../../client/account-api.ts';
import { statedMessageOf } from '../../client/api.ts';
import type { AccountSessionDto } from '../../shared/account-types.ts';
import MessageBanner from '../auth/MessageBanner.tsx';
import { ACCOUNT_PAGES } from '../../shared/site-map/paths.ts';

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** The reader's sessions, each with a button that ends it; ending this browser's logs out. */
export function SessionsList({ sessions, onChange }: { sessions: AccountSessionDto[]; onChange: () => void }) {
  const [busyId, setBusyId] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function end(session: AccountSessionDto) {
    setBusyId(session.id);
    setError(null);
    try {
      const answer = await endSession(session.id);
      if (answer.current) window.location.assign(ACCOUNT_PAGES.login);
      else onChange();
    } catch (failure) {
      setError(statedMessageOf(failure, 'The session could not be ended. Please try again.'));
    } finally {
      setBusyId(null);
    }
  }

  return (
    <section className="account-section" aria-labelledby="account-sessions-title">
      <h2 id="account-sessions-title">Where you are logged in</h2>
      {error && <MessageBanner type="error" message={error} onClose={() => setError(null)} />}
      {sessions.length === 0 ? (
        <p>No sessions.</p>
      ) : (
        <ul className="account-sessions">
          {sessions.map((session) => (
            <li key={session.id}>
              <div>
                <strong>{session.browser}</strong>
                {session.current && <span className="account-badge">This browser</span>}
                <br />
                <small>
                  Last used {when(session.last_used_at)}; logged in {when(session.created_at)}
                </small>
              </div>
              <button
                type="button"
                className="button button-secondary"
                onClick={() => void end(session)}
                disabled={busyId !== null}
                aria-busy={busyId === session.id}
                aria-label={
                  session.current
                    ? 'Log out of this browser'
                    : `End the session of ${session.browser}, last used ${when(session.last_used_at)}`
                }
              >
                {session.current ? 'Log out here' : 'End session'}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
