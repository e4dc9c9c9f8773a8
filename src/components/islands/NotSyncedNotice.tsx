import type { NotSynced } from '../../client/library/library-actions.ts';

/**
 * Says which articles saved on this device before login did not go into the account, and why:
 * together with the account's they would pass the library's limit, and the site then takes none
 * (so the reader chooses what to drop, rather than the site choosing for them).
 */
export function NotSyncedNotice({ notSynced }: { notSynced: NotSynced }) {
  const { entries, inAccount, limit } = notSynced;
  const these = entries.length === 1 ? 'this article' : `these ${entries.length} articles`;
  return (
    <div className="library-notice library-notice-error library-not-synced" role="status" data-library-not-synced>
      <p>
        Not added to your account: {these}, saved on this device before you logged in. Your account’s library holds {inAccount} of
        at most {limit} articles, so {entries.length === 1 ? 'it does' : 'they do'} not fit.
      </p>
      <ul>
        {entries.map((entry) => (
          <li key={entry.id} dir="auto">
            {entry.title}
          </li>
        ))}
      </ul>
      <p>
        {entries.length === 1 ? 'It stays' : 'They stay'} on this device, marked below. Remove articles you no longer need (from
        your account or this device) and {entries.length === 1 ? 'it is' : 'they are'} added.
      </p>
    </div>
  );
}
