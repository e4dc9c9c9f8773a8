import { $auth } from '../../stores/auth.ts';
import { sendReadingProgress } from '../library-api.ts';

/**
 * Where a signed-in reader stopped in an article, for "Recently read" in their library: sent
 * when they stop scrolling and as they leave. A library link ends in `#at=0.42`, which brings
 * the reader back to that point of the article.
 */

const QUIET_MS = 1500;

/** How far through the article the reader is: 0 at its top, 1 once its end is on screen. */
export function positionIn(article: { top: number; height: number }, scrollY: number, viewport: number): number {
  const span = article.height - viewport;
  if (span <= 0) return 1;
  const ratio = (scrollY - article.top) / span;
  return Math.round(Math.min(1, Math.max(0, ratio)) * 1000) / 1000;
}

/** The position a `#at=0.42` address asks for, or null. */
export function positionFromHash(hash: string): number | null {
  const match = /^#at=(0(?:\.\d{1,3})?|1(?:\.0{1,3})?)$/.exec(hash);
  return match ? Number(match[1]) : null;
}

export function trackReadingPosition(article: HTMLElement, blogId: number): void {
  const measure = () => {
    const box = article.getBoundingClientRect();
    return positionIn({ top: box.top + window.scrollY, height: box.height }, window.scrollY, window.innerHeight);
  };
  const resume = positionFromHash(location.hash);
  if (resume !== null) {
    const box = article.getBoundingClientRect();
    const top = box.top + window.scrollY;
    window.scrollTo({ top: top + resume * Math.max(0, box.height - window.innerHeight) });
  }

  let lastSent: number | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const send = (keepalive: boolean) => {
    if ($auth.get().status !== 'user') return;
    const position = measure();
    if (position === lastSent) return;
    lastSent = position;
    sendReadingProgress(blogId, position, keepalive).catch(() => {
      // Offline or signed out elsewhere: the next stop is sent again.
      lastSent = null;
    });
  };
  window.addEventListener(
    'scroll',
    () => {
      clearTimeout(timer);
      timer = setTimeout(() => send(false), QUIET_MS);
    },
    { passive: true },
  );
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') send(true);
  });
  // Opening the article counts as reading it, once the signed-in state is known.
  const stop = $auth.subscribe((state) => {
    if (state.status !== 'user') return;
    queueMicrotask(() => stop());
    setTimeout(() => send(false), QUIET_MS);
  });
}
