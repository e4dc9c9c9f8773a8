import { useEffect, useRef, useState } from 'react';
import { getPageRefreshStatus } from '../../client/api.ts';
import type { CdnPurgeReport, CdnPurgeStatus } from '../../shared/api-types.ts';

const FIRST_POLL_MS = 400;
const LONGEST_POLL_MS = 5000;
const GIVE_UP_MS = 5 * 60 * 1000;

/** "312 pages refreshed in 1.4 s": what the admin reads once the background refresh drained. */
export function describeDrain(refreshed: number, seconds: number): string {
  return `${refreshed} ${refreshed === 1 ? 'page' : 'pages'} refreshed in ${seconds} s`;
}

/**
 * What the admin reads when a shared cache in front (Varnish) missed a purge: the save itself
 * succeeded, the purge is retried, and readers of that cache may see the old page meanwhile.
 */
export function describeCdnTrouble(report: CdnPurgeReport | undefined, status?: CdnPurgeStatus): string | null {
  const failed = report?.failed ?? [];
  if (failed.length > 0)
    return `Saved, but the cache at ${failed.map((f) => f.cache).join(', ')} did not confirm its purge (${failed[0]!.error}); the purge is pending, readers there may see the old page meanwhile.`;
  if (status && status.pending > 0)
    return `${status.pending === 1 ? 'A cache purge is' : `${status.pending} cache purges are`} pending${status.lastFailure ? ` (last failure: ${status.lastFailure.cache}: ${status.lastFailure.error})` : ''}.`;
  if (status && status.givenUp > 0)
    return `${status.givenUp} cache ${status.givenUp === 1 ? 'purge' : 'purges'} failed every retry since the server started (see its log); those pages refresh when they expire.`;
  return null;
}

/**
 * Follows the background refresh a save queued: polls the status politely (backing off) and
 * stops once the queue drained, on an error, or after a few minutes.
 */
export function useRefreshDrain(): {
  refreshText: string | null;
  watchRefresh: (refresh: { queued: number; cdn?: CdnPurgeReport } | undefined) => void;
} {
  const [refreshText, setRefreshText] = useState<string | null>(null);
  const timer = useRef<number | null>(null);
  const stop = () => {
    if (timer.current !== null) window.clearTimeout(timer.current);
    timer.current = null;
  };
  useEffect(() => stop, []);

  const watchRefresh = (refresh: { queued: number; cdn?: CdnPurgeReport } | undefined) => {
    stop();
    const queued = refresh?.queued ?? 0;
    const cdnTrouble = describeCdnTrouble(refresh?.cdn);
    const withCdn = (text: string | null, status?: CdnPurgeStatus) => {
      const trouble = status ? describeCdnTrouble(undefined, status) : cdnTrouble;
      return [text, trouble].filter(Boolean).join(' ') || null;
    };
    if (!queued && !cdnTrouble) {
      setRefreshText(null);
      return;
    }
    setRefreshText(withCdn(queued ? `Refreshing ${queued} other ${queued === 1 ? 'page' : 'pages'}…` : null));
    const startedAt = Date.now();
    let delay = FIRST_POLL_MS;
    const poll = async () => {
      timer.current = null;
      try {
        const status = await getPageRefreshStatus();
        const pending = (status.cdn?.pending ?? 0) > 0;
        if (status.queued === 0 && !pending) {
          const drained = queued ? describeDrain(status.refreshedSinceLastChange, status.seconds) : null;
          const recovered = cdnTrouble && !status.cdn?.givenUp ? 'The pending cache purge went through.' : null;
          setRefreshText(withCdn([drained, recovered].filter(Boolean).join(' ') || null, status.cdn));
          return;
        }
        const progress =
          status.queued === 0
            ? describeDrain(status.refreshedSinceLastChange, status.seconds)
            : `Refreshing pages: ${status.queued} left…`;
        setRefreshText(withCdn(progress, status.cdn));
      } catch {
        setRefreshText(null);
        return;
      }
      if (Date.now() - startedAt > GIVE_UP_MS) return;
      delay = Math.min(delay * 1.5, LONGEST_POLL_MS);
      timer.current = window.setTimeout(() => void poll(), delay);
    };
    timer.current = window.setTimeout(() => void poll(), delay);
  };
  return { refreshText, watchRefresh };
}
