import type { SiblingChannel } from './sibling-news.ts';

const WAKE_TOPIC = 'render-wake';
const REST_SOON_TOPIC = 'render-rest-soon';

/**
 * Whether a request Astro answers may be followed by a change whose pages the render workers
 * render: a write (a save, a comment, a form), or a page or read of the admin, its sign-in or the
 * first setup (an admin at work saves soon; the article form with unsaved changes asks
 * `/api/admin/page-refresh` every 20 s for that). Not a reader's view count
 * (`PUT /api/blogs/:id/click`, sent by every article page a browser opens: it woke every
 * process's workers for a rest spell on any site with readers), nor a reader's read of the API
 * or of their own pages.
 */
export function changeMayFollow(method: string, pathname: string): boolean {
  if (method !== 'GET' && method !== 'HEAD') return !/^\/api\/blogs\/[^/]+\/click\/?$/.test(pathname);
  return (
    pathname === '/admin' ||
    pathname.startsWith('/admin/') ||
    pathname.startsWith('/api/admin/') ||
    pathname === '/login' ||
    pathname === '/setup'
  );
}

/**
 * What to call for each request where a change may follow (`changeMayFollow`): its hot pages are
 * rendered by every process's workers (render-help.ts), which stop after a quiet spell
 * (RENDER_WORKERS_REST_SECONDS); and for each search page, which a render worker answers: a
 * reader who searched often searches again, on a connection any process may take. This process's
 * workers are started and kept up, and its siblings are told to start theirs, at most twice per
 * rest period, so a stream of admin requests costs a message now and then.
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

/**
 * What to call when work no one waits for has been handed out (the top-viewed lists refreshed
 * after views moved them): every process's workers stop `ms` from now or once that work's share
 * they hold is done (`RenderPool.restSoon`), not a whole rest spell later. On a site with readers
 * the lists move every check, and each refresh kept the workers of both processes up.
 */
export function restRenderersSoonEverywhere(
  pool: { restSoon(ms: number): void },
  siblings: Pick<SiblingChannel, 'listen' | 'tell'> | null,
  ms: number,
): () => void {
  siblings?.listen(REST_SOON_TOPIC, () => pool.restSoon(ms));
  return () => {
    pool.restSoon(ms);
    siblings?.tell(REST_SOON_TOPIC, null);
  };
}
