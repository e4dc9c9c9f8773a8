import type { AppContext } from '../context.ts';
import { notFound } from '../errors.ts';
import { addClicks, blogExists } from '../db/repositories/clicks.ts';

/**
 * View counts. One view per client address and article per half hour counts (a reload, a script
 * hammering PUT /click, or a reader coming back to the tab adds nothing), and counted views are
 * written in batches: they add up in memory and one transaction a second writes them, so a flood
 * of views costs no commit each. Shutdown writes what is left (flushPendingViews).
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

interface ViewCounter {
  app: AppContext;
  /** `address\nblog id` -> when its view was counted. */
  seen: Map<string, number>;
  /** blog id -> views counted but not yet written. */
  pending: Map<number, number>;
  timer: NodeJS.Timeout | null;
  /** The flush under way, so two never overlap. */
  writing: Promise<void>;
}

const KEY = Symbol.for('study-site.view-counter');
type Holder = { [KEY]?: ViewCounter };

function counterFor(app: AppContext): ViewCounter {
  const holder = globalThis as Holder;
  // One app per process; a new one (a test's fresh database) starts a new count.
  if (holder[KEY]?.app !== app) {
    if (holder[KEY]?.timer) clearInterval(holder[KEY].timer);
    holder[KEY] = { app, seen: new Map(), pending: new Map(), timer: null, writing: Promise.resolve() };
  }
  return holder[KEY];
}

/** Counts a view of the blog by this address, unless it already counted one within the window; 404 for an unknown blog. */
export async function recordClick(app: AppContext, blogId: number, clientAddress: string, now = Date.now()): Promise<void> {
  const counter = counterFor(app);
  const key = `${clientAddress}\n${blogId}`;
  const seenAt = counter.seen.get(key);
  if (seenAt !== undefined && now - seenAt < VIEW_WINDOW_MS) return;
  // Marked before the await, so simultaneous clicks from one address count once.
  remember(counter, key, now);
  if (!(await blogExists(app.db, blogId))) {
    counter.seen.delete(key);
    throw notFound('That blog');
  }
  counter.pending.set(blogId, (counter.pending.get(blogId) ?? 0) + 1);
  counter.timer ??= setInterval(() => void flushPendingViews(), VIEW_FLUSH_MS).unref();
}

function remember(counter: ViewCounter, key: string, now: number): void {
  counter.seen.delete(key);
  counter.seen.set(key, now);
  if (counter.seen.size <= MAX_REMEMBERED) return;
  // Oldest first (insertion order): expired ones go, then the stalest down to 90%.
  for (const [k, at] of counter.seen) {
    if (counter.seen.size <= MAX_REMEMBERED * 0.9 && now - at < VIEW_WINDOW_MS) break;
    counter.seen.delete(k);
  }
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
