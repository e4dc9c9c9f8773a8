import { useEffect, useRef, useState } from 'react';
import { getPageRefreshStatus } from '../../client/api.ts';

const FIRST_POLL_MS = 400;
const LONGEST_POLL_MS = 5000;
const GIVE_UP_MS = 5 * 60 * 1000;

/** "312 pages refreshed in 1.4 s": what the admin reads once the background refresh drained. */
export function describeDrain(refreshed: number, seconds: number): string {
  return `${refreshed} ${refreshed === 1 ? 'page' : 'pages'} refreshed in ${seconds} s`;
}

/**
 * Follows the background refresh a save queued: polls the status politely (backing off) and
 * stops once the queue drained, on an error, or after a few minutes.
 */
export function useRefreshDrain(): { refreshText: string | null; watchRefresh: (queued: number | undefined) => void } {
  const [refreshText, setRefreshText] = useState<string | null>(null);
  const timer = useRef<number | null>(null);
  const stop = () => {
    if (timer.current !== null) window.clearTimeout(timer.current);
    timer.current = null;
  };
  useEffect(() => stop, []);

  const watchRefresh = (queued: number | undefined) => {
    stop();
    if (!queued) {
      setRefreshText(null);
      return;
    }
    setRefreshText(`Refreshing ${queued} other ${queued === 1 ? 'page' : 'pages'}…`);
    const startedAt = Date.now();
    let delay = FIRST_POLL_MS;
    const poll = async () => {
      timer.current = null;
      try {
        const status = await getPageRefreshStatus();
        if (status.queued === 0) {
          setRefreshText(describeDrain(status.refreshedSinceLastChange, status.seconds));
          return;
        }
        setRefreshText(`Refreshing pages: ${status.queued} left…`);
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
