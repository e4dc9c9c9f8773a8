import { useEffect, useState } from 'react';
import type { Page } from '../../client/api.ts';
import { showError } from '../../stores/admin.ts';

export type LoadStatus = 'loading' | 'ready' | 'failed';

/** Loads a whole list once (categories, slides); a failure shows the screen's message in the banner. */
export function useAdminList<T>(load: (signal: AbortSignal) => Promise<T[]>, loadFailed: string) {
  const [items, setItems] = useState<T[]>([]);
  const [status, setStatus] = useState<LoadStatus>('loading');

  useEffect(() => {
    const controller = new AbortController();
    load(controller.signal)
      .then((list) => {
        setItems(list);
        setStatus('ready');
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        console.error(error);
        setStatus('failed');
        showError(loadFailed);
      });
    return () => controller.abort();
    // Loaded once per mount: the loader and message are fixed for the screen.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return { items, setItems, status };
}

interface PagedOptions<T> {
  pageSize: number;
  load: (query: { limit: number; offset: number }, signal: AbortSignal) => Promise<Page<T>>;
  loadFailed: string;
  /** Whatever else selects the rows (a search): a change reloads. */
  filterKey?: string;
}

/**
 * One page of a server-paged table (limit/offset, X-Total-Count). While the next page loads the
 * previous rows stay, so the table does not jump; a delete that empties the last page steps back.
 */
export function usePagedAdminList<T extends { id: number }>({ pageSize, load, loadFailed, filterKey = '' }: PagedOptions<T>) {
  const [page, setPage] = useState(1);
  const [result, setResult] = useState<{ key: string; ok: boolean; items: T[]; total: number } | null>(null);
  const [reload, setReload] = useState(0);

  // The answer is tagged with the request it belongs to: any other answer means "loading".
  const requestKey = `${page}|${filterKey}|${reload}`;
  useEffect(() => {
    const controller = new AbortController();
    load({ limit: pageSize, offset: (page - 1) * pageSize }, controller.signal)
      .then(({ items, total }) => {
        const lastPage = Math.max(1, Math.ceil(total / pageSize));
        if (items.length === 0 && page > lastPage) setPage(lastPage);
        else setResult({ key: requestKey, ok: true, items, total });
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        console.error(error);
        setResult({ key: requestKey, ok: false, items: [], total: 0 });
        showError(loadFailed);
      });
    return () => controller.abort();
    // requestKey stands for page, filter and reload; the loader reads the filter it was made with.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [requestKey]);

  const status: LoadStatus = result?.key !== requestKey ? 'loading' : result.ok ? 'ready' : 'failed';
  const total = result?.total ?? 0;

  /** Drops a deleted row at once, then reloads the page so it fills up again. */
  const removeItem = (id: number) => {
    setResult((previous) => previous && { ...previous, items: previous.items.filter((row) => row.id !== id) });
    setReload((n) => n + 1);
  };

  return {
    page,
    setPage,
    items: result?.items ?? [],
    total,
    pages: Math.max(1, Math.ceil(total / pageSize)),
    status,
    removeItem,
  };
}
