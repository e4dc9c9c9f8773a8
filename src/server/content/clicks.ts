import crypto from 'node:crypto';
import type { AppContext } from '../context.ts';
import type { Db } from '../db/client.ts';
import type { HitStore } from '../hit-store.ts';
import type { ViewCounter } from '../ports.ts';
import { notFound } from '../errors.ts';
import { addClicks, blogExists } from '../db/repositories/clicks.ts';
import { createHitLogIn } from '../api/shared-hit-log.ts';
import type { RateLimitDecision } from '../api/hit-log.ts';

/**
 * View counts. One view per client address and article per half hour counts (a reload, a script
 * hammering PUT /click, or a reader coming back to the tab adds nothing), and counted views are
 * written in batches: they add up in memory and one transaction a second writes them, so a flood
 * of views costs no commit each. Shutdown writes what is left (`stop`).
 *
 * Which address already counted is kept where every serving process, and another server on the
 * same files, sees it: the shared hit store the rate limits use (`context.hits`, a file apart
 * from the site's database, so a first view does not change the database every reader's page
 * cache watches). Kept per process, each process counted its own view of the same reader. Its
 * key is a hash of the address and the article: the file holds no reading history.
 *
 * No page-cache invalidation here: a view is not an edit, and re-rendering pages on every visit would defeat
 * the page store; the store refreshes the top-viewed lists on its own timer instead.
 *
 * The counter is made once per process (by the front server, or the `astro dev` context) and is a
 * part of the app context: the front server flushes it at shutdown, Astro's bundle counts in it.
 */
export const VIEW_WINDOW_MS = 30 * 60_000;
export const VIEW_FLUSH_MS = 1_000;
const MAX_REMEMBERED = 100_000;
const BUCKET = 'views';

export type { ViewCounter };

/** A view counts when the key has none in the window. */
function firstInWindow(live: number[], at: number): RateLimitDecision {
  if (live.length === 0) return { allowed: true, remaining: 0, retryAfterMs: 0 };
  return { allowed: false, remaining: 0, retryAfterMs: Math.max(0, live[live.length - 1]! + VIEW_WINDOW_MS - at) };
}

function viewKey(clientAddress: string, blogId: number): string {
  return crypto.createHash('sha256').update(`${clientAddress}\n${blogId}`).digest('base64url').slice(0, 22);
}

/** The counter of `db`'s views; `hits`: the shared store of who already counted (absent: this process's memory). */
export function createViewCounter({ db, hits }: { db: Db; hits?: HitStore | undefined }): ViewCounter {
  /** The time of the click being decided, read by `seen`. */
  const clock = { now: 0 };
  /** Hashed `address, blog id` -> when its view was counted. */
  const seen = createHitLogIn(hits ? { store: hits, bucket: BUCKET } : undefined, {
    windowMs: VIEW_WINDOW_MS,
    keep: 1,
    maxKeys: MAX_REMEMBERED,
    now: () => clock.now,
    decide: firstInWindow,
  });
  /** blog id -> views counted but not yet written. */
  let pending = new Map<number, number>();
  let timer: NodeJS.Timeout | null = null;
  /** The flush under way, so two never overlap. */
  let writing = Promise.resolve();

  /** A failed write keeps the views for the next try. */
  function flush(): Promise<void> {
    writing = writing.then(async () => {
      if (pending.size === 0) return;
      const batch = pending;
      pending = new Map();
      try {
        await addClicks(db, batch);
      } catch (error) {
        for (const [id, count] of batch) pending.set(id, (pending.get(id) ?? 0) + count);
        console.error('[views] could not write view counts, kept for the next try:', error);
      }
    });
    return writing;
  }

  return {
    async record(blogId, clientAddress, now = Date.now()) {
      const key = viewKey(clientAddress, blogId);
      clock.now = now;
      // Marked before the await (check and mark in one transaction of the shared store), so
      // simultaneous clicks from one address count once, in whichever process they arrive.
      if (!seen.take(key).allowed) return true;
      if (!(await blogExists(db, blogId))) {
        seen.refund(key);
        return false;
      }
      pending.set(blogId, (pending.get(blogId) ?? 0) + 1);
      timer ??= setInterval(() => void flush(), VIEW_FLUSH_MS).unref();
      return true;
    },
    flush,
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await flush();
    },
  };
}

/** Counts a view of the blog by this address, unless it already counted one within the window; 404 for an unknown blog. */
export async function recordClick(app: AppContext, blogId: number, clientAddress: string, now = Date.now()): Promise<void> {
  if (!app.views) throw new Error('This thread counts no views: its app context has no view counter');
  // Thrown here, not by the counter: the front server made it from its own copy of the error
  // catalogue, whose AppError the routes in Astro's bundle would not recognise.
  if (!(await app.views.record(blogId, clientAddress, now))) throw notFound('That blog');
}
