import { useCallback, useEffect, useState } from 'react';
import { ApiError } from '../../client/api.ts';
import { loadAccountLibrary, removeArticle, type NotSynced } from '../../client/library/library-actions.ts';
import { isKeptOffline, onOfflineCopyChange } from '../../client/library/offline-copies.ts';
import { onSavedListChange, readSavedList, type SavedEntry } from '../../client/library/saved-list.ts';
import type { OwnCommentDto, RecentReadDto } from '../../shared/api-types.ts';

/**
 * The library page's data: the account's library when signed in and online; otherwise this
 * device's saved list, which is all that can be shown offline (recent reads and comments live on
 * the server and are never kept on the device).
 */
export type LibraryState =
  | { phase: 'loading' }
  | { phase: 'account'; recent: RecentReadDto[]; comments: OwnCommentDto[]; skipped: number[]; notSynced: NotSynced | null }
  | { phase: 'device'; reason: 'signed-out' | 'offline' | 'error'; message?: string };

export function useLibrary() {
  const [state, setState] = useState<LibraryState>({ phase: 'loading' });
  const [saved, setSaved] = useState<SavedEntry[]>([]);
  const [offline, setOffline] = useState<ReadonlySet<number>>(new Set());
  const [notice, setNotice] = useState<{ kind: 'error' | 'status'; text: string } | null>(null);

  const load = useCallback((signal?: AbortSignal) => {
    loadAccountLibrary(signal)
      .then((library) => {
        setSaved(library.saved);
        const { recent, comments, skipped, notSynced } = library;
        setState({ phase: 'account', recent, comments, skipped, notSynced });
      })
      .catch((error: unknown) => {
        if (signal?.aborted) return;
        setSaved(readSavedList());
        if (error instanceof ApiError && error.status === 401) setState({ phase: 'device', reason: 'signed-out' });
        else if (error instanceof ApiError) setState({ phase: 'device', reason: 'error', message: error.message });
        else setState({ phase: 'device', reason: 'offline' });
      });
  }, []);

  useEffect(() => {
    const controller = new AbortController();
    const stop = onSavedListChange(setSaved);
    load(controller.signal);
    return () => {
      controller.abort();
      stop();
    };
  }, [load]);

  // Which saved articles have their offline copy yet (made in the background after a save).
  useEffect(() => {
    let live = true;
    const check = () =>
      void Promise.all(saved.map(async (entry) => ((await isKeptOffline(entry.id)) ? entry.id : null))).then((ids) => {
        if (live) setOffline(new Set(ids.filter((id): id is number => id !== null)));
      });
    check();
    const stop = onOfflineCopyChange(check);
    return () => {
      live = false;
      stop();
    };
  }, [saved]);

  const waiting = state.phase === 'account' && state.notSynced !== null;
  const remove = useCallback(
    async (entry: SavedEntry) => {
      setNotice(null);
      try {
        await removeArticle(entry.id);
        setNotice({ kind: 'status', text: `Removed “${entry.title}” from your library.` });
        // Device saves left out for want of room: there may be room for them now.
        if (waiting) load();
      } catch (error) {
        setNotice({
          kind: 'error',
          text: error instanceof ApiError ? error.message : 'Could not reach the site. Check your connection and try again.',
        });
      }
    },
    [waiting, load],
  );

  return { state, saved, offline, notice, remove };
}
