import { useLibrary } from './use-library.ts';
import { CommentsList, RecentList, SavedList } from './LibraryLists.tsx';
import { NotSyncedNotice } from './NotSyncedNotice.tsx';
import { ACCOUNT_PAGES } from '../../shared/site-map/paths.ts';

const DEVICE_NOTES = {
  'signed-out':
    'These articles are saved on this device only. Log in to keep them in your account: they are added to it when you do.',
  offline: 'You are offline. These are the articles saved on this device; they open without a connection.',
  error: '',
} as const;

/** The /library page: saved articles, recent reading and the reader's own comments. */
export default function LibraryView() {
  const { state, saved, offline, notice, remove } = useLibrary();
  const signedIn = state.phase === 'account';

  return (
    <>
      <div className="library-head">
        <h1>My library</h1>
        {signedIn && <a href={ACCOUNT_PAGES.account}>Account settings</a>}
      </div>
      {state.phase === 'loading' && (
        <p className="library-notice" role="status">
          Loading your library...
        </p>
      )}
      {state.phase === 'device' && (
        <p className={`library-notice${state.reason === 'error' ? ' library-notice-error' : ''}`} role="status">
          {state.reason === 'error'
            ? `Could not load your library: ${state.message ?? ''} Showing this device’s saves.`
            : DEVICE_NOTES[state.reason]}
          {state.reason === 'signed-out' && (
            <>
              {' '}
              <a href={ACCOUNT_PAGES.login}>Log in</a>
            </>
          )}
        </p>
      )}
      {state.phase === 'account' && state.skipped.length > 0 && (
        <p className="library-notice" role="status">
          {state.skipped.length === 1
            ? 'One article saved on this device is no longer on the site, so it was left out.'
            : `${state.skipped.length} articles saved on this device are no longer on the site, so they were left out.`}
        </p>
      )}
      {state.phase === 'account' && state.notSynced && <NotSyncedNotice notSynced={state.notSynced} />}
      <p
        className={notice ? `library-notice${notice.kind === 'error' ? ' library-notice-error' : ''}` : 'visually-hidden'}
        role={notice?.kind === 'error' ? 'alert' : 'status'}
      >
        {notice?.text ?? ''}
      </p>
      {state.phase !== 'loading' && <SavedList saved={saved} offline={offline} onRemove={remove} markDeviceOnly={signedIn} />}
      {state.phase === 'account' && <RecentList recent={state.recent} />}
      {state.phase === 'account' && <CommentsList comments={state.comments} />}
    </>
  );
}
