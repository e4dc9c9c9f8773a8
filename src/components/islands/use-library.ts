import { useCallback, useEffect, useState } from 'react';
import { ApiError } from '../../client/api.ts';
import { loadAccountLibrary, removeArticle } from '../../client/library/library-actions.ts';
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
  | { phase: 'account'; recent: RecentReadDto[]; comments: OwnCommentDto[]; skipped: number[] }
  | { phase: 'device'; reason: 'signed-out' | 'offline' | 'error'; message?: string };

export function useLibrary() {
  const [state, setState] = useState<LibraryState>({ phase: 'loading' });
  const [saved, setSaved] = useState<SavedEntry[]>([]);
  const [offline, setOffline] = useState<ReadonlySet<number>>(new Set());
  const [notice, setNotice] = useState<{ kind: 'error' | 'status'; text: string } | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    const stop = onSavedListChange(setSaved);
    loadAccountLibrary(controller.signal)
      .then((library) => {
        setSaved(library.saved);
        setState({ phase: 'account', recent: library.recent, comments: library.comments, skipped: library.skipped });
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        setSaved(readSavedList());
        if (error instanceof ApiError && error.status === 401) setState({ phase: 'device', reason: 'signed-out' });
        else if (error instanceof ApiError) setState({ phase: 'device', reason: 'error', message: error.message });
        else setState({ phase: 'device', reason: 'offline' });
      });
    return () => {
      controller.abort();
      stop();
    };
  }, []);

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

  const remove = useCallback(async (entry: SavedEntry) => {
    setNotice(null);
    try {
      await removeArticle(entry.id);
      setNotice({ kind: 'status', text: `Removed “${entry.title}” from your library.` });
    } catch (error) {
      setNotice({
        kind: 'error',
        text: error instanceof ApiError ? error.message : 'Could not reach the site. Check your connection and try again.',
      });
    }
  }, []);

  return { state, saved, offline, notice, remove };
}
