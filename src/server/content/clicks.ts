import crypto from 'node:crypto';
import type { AppContext } from '../context.ts';
import { notFound } from '../errors.ts';
import { addClicks, blogExists } from '../db/repositories/clicks.ts';
import { createHitLogIn } from '../api/shared-hit-log.ts';
import type { HitLog, RateLimitDecision } from '../api/hit-log.ts';

/**
 * View counts. One view per client address and article per half hour counts (a reload, a script
 * hammering PUT /click, or a reader coming back to the tab adds nothing), and counted views are
 * written in batches: they add up in memory and one transaction a second writes them, so a flood
 * of views costs no commit each. Shutdown writes what is left (flushPendingViews).
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
 * The state lives on globalThis: the front server (which flushes at shutdown) and Astro's bundle
 * (which counts) each load their own copy of this module.
 */
export const VIEW_WINDOW_MS = 30 * 60_000;
export const VIEW_FLUSH_MS = 1_000;
const MAX_REMEMBERED = 100_000;
const BUCKET = 'views';

interface ViewCounter {
  app: AppContext;
  /** Hashed `address, blog id` -> when its view was counted (the shared store, else this process's memory). */
  seen: HitLog;
  /** The time of the click being decided, read by `seen`. */
  clock: { now: number };
  /** blog id -> views counted but not yet written. */
  pending: Map<number, number>;
  timer: NodeJS.Timeout | null;
  /** The flush under way, so two never overlap. */
  writing: Promise<void>;
}

const KEY = Symbol.for('study-site.view-counter');
type Holder = { [KEY]?: ViewCounter };

/** A view counts when the key has none in the window. */
function firstInWindow(live: number[], at: number): RateLimitDecision {
  if (live.length === 0) return { allowed: true, remaining: 0, retryAfterMs: 0 };
  return { allowed: false, remaining: 0, retryAfterMs: Math.max(0, live[live.length - 1]! + VIEW_WINDOW_MS - at) };
}

function counterFor(app: AppContext): ViewCounter {
  const holder = globalThis as Holder;
  // One app per process; a new one (a test's fresh database) starts a new count.
  if (holder[KEY]?.app !== app) {
    if (holder[KEY]?.timer) clearInterval(holder[KEY].timer);
    const clock = { now: 0 };
    const seen = createHitLogIn(app.hits ? { store: app.hits, bucket: BUCKET } : undefined, {
      windowMs: VIEW_WINDOW_MS,
      keep: 1,
      maxKeys: MAX_REMEMBERED,
      now: () => clock.now,
      decide: firstInWindow,
    });
    holder[KEY] = { app, seen, clock, pending: new Map(), timer: null, writing: Promise.resolve() };
  }
  return holder[KEY];
}

function viewKey(clientAddress: string, blogId: number): string {
  return crypto.createHash('sha256').update(`${clientAddress}\n${blogId}`).digest('base64url').slice(0, 22);
}

/** Counts a view of the blog by this address, unless it already counted one within the window; 404 for an unknown blog. */
export async function recordClick(app: AppContext, blogId: number, clientAddress: string, now = Date.now()): Promise<void> {
  const counter = counterFor(app);
  const key = viewKey(clientAddress, blogId);
  counter.clock.now = now;
  // Marked before the await (check and mark in one transaction of the shared store), so
  // simultaneous clicks from one address count once, in whichever process they arrive.
  if (!counter.seen.take(key).allowed) return;
  if (!(await blogExists(app.db, blogId))) {
    counter.seen.refund(key);
    throw notFound('That blog');
  }
  counter.pending.set(blogId, (counter.pending.get(blogId) ?? 0) + 1);
  counter.timer ??= setInterval(() => void flushPendingViews(), VIEW_FLUSH_MS).unref();
}

/** Writes the counted views in one transaction. A failed write keeps them for the next try. */
export function flushPendingViews(): Promise<void> {
  const counter = (globalThis as Holder)[KEY];
  if (!counter) return Promise.resolve();
  counter.writing = counter.writing.then(async () => {
    if (counter.pending.size === 0) return;
    const batch = counter.pending;
    counter.pending = new Map();
    try {
      await addClicks(counter.app.db, batch);
    } catch (error) {
      for (const [id, count] of batch) counter.pending.set(id, (counter.pending.get(id) ?? 0) + count);
      console.error('[views] could not write view counts, kept for the next try:', error);
    }
  });
  return counter.writing;
}

/** At shutdown: no more timer, and everything counted is written before the database closes. */
export async function stopViewCounter(): Promise<void> {
  const counter = (globalThis as Holder)[KEY];
  if (!counter) return;
  if (counter.timer) clearInterval(counter.timer);
  counter.timer = null;
  await flushPendingViews();
}
