import type { SiblingChannel } from './sibling-news.ts';

const WAKE_TOPIC = 'render-wake';

/**
 * What to call for each request Astro answers (the admin, the API, a form): a change may follow,
 * and its hot pages are rendered by every process's workers (render-help.ts), which stop after a
 * quiet spell (RENDER_WORKERS_REST_SECONDS); and for each search page, which a render worker
 * answers: a reader who searched often searches again, on a connection any process may take.
 * This process's workers are started and kept up, and its siblings are told to start theirs, at
 * most twice per rest period, so a stream of admin requests costs a message now and then.
 */
export function wakeRenderersEverywhere(
  pool: { wake(): void },
  siblings: Pick<SiblingChannel, 'listen' | 'tell'> | null,
  restSeconds: number,
): () => void {
  if (restSeconds <= 0) return () => {};
  siblings?.listen(WAKE_TOPIC, () => pool.wake());
  const everyMs = (restSeconds * 1000) / 2;
  let toldAt = -Infinity;
  return () => {
    pool.wake();
    const now = performance.now();
    if (!siblings || now - toldAt < everyMs) return;
    toldAt = now;
    siblings.tell(WAKE_TOPIC, null);
  };
}
