import type { AppContext } from '../context.ts';
import type { Wakeable } from '../ports.ts';
import { claimDueBlogs, findBlogById, indexBlog, nextPublishAt, type Blog } from '../db/repositories/blogs.ts';
import { uniqueTags } from '../page-store/site-tags.ts';
import { changedTags } from './blog-publication.ts';
import { navTagsForCategoryChanges } from './category-visibility.ts';
import { neighbourTagsForChanges } from './article-neighbours.ts';
import { recordRevision } from './blog-revisions.ts';
import { htmlToText } from './sanitize.ts';

/**
 * Scheduled publishing without a request: a timer in the server process sleeps until the next
 * publish_at, then publishes what is due through the same page refresh as an admin's save. At
 * start it publishes whatever fell due while the server was down. A save that schedules an
 * article wakes the timer (`app.publishScheduler.wake()`); it also looks again at least every
 * LONGEST_SLEEP_MS, for schedules another serving process saved. Each due article is claimed by
 * one conditional UPDATE, so with several processes exactly one publishes it.
 *
 * The front server makes the scheduler before the app context, which holds it so that Astro's
 * bundle (whose saves wake it) reaches the front server's instance, and starts it once the
 * context is set.
 */
export const LONGEST_SLEEP_MS = 30_000;

interface Scheduler {
  app: AppContext;
  timer: NodeJS.Timeout | null;
  running: Promise<void>;
  stopped: boolean;
  log: (line: string) => void;
}

/** Made before the app context (which holds it), started with it. */
export interface PublishScheduler extends Wakeable {
  /** Starts the timer (publishing what is already due first). */
  start(app: AppContext): void;
  stop(): Promise<void>;
}

/** Publishes every scheduled article that is due; answers their ids. */
export async function publishDueBlogs(app: AppContext, now = new Date().toISOString()): Promise<number[]> {
  const startedAt = performance.now();
  const published = await app.db.transaction().execute(async (trx) => {
    const ids = await claimDueBlogs(trx, now);
    const blogs: Blog[] = [];
    for (const id of ids) {
      const blog = (await findBlogById(trx, id))!;
      await indexBlog(trx, blog, htmlToText(blog.content));
      await recordRevision(trx, blog, null, 'publish', app.config.revisionsKeep);
      blogs.push(blog);
    }
    return blogs;
  });
  if (published.length === 0) return [];
  // Before the claim, readers could not see them (the scheduler runs at their due time): as for
  // a draft an admin publishes, the lists they join, their category and their own page refresh.
  const unpublished = (blog: Blog): Blog => ({ ...blog, status: 'draft' });
  const changes = published.map((blog) => ({ before: unpublished(blog), after: blog }));
  const tags = uniqueTags([
    ...changes.flatMap(({ before, after }) => changedTags(before, after, now)),
    ...(await navTagsForCategoryChanges(app.db, changes, now)),
    ...(await neighbourTagsForChanges(app.db, changes, now)),
  ]);
  await app.pageCache.invalidate(tags, startedAt);
  return published.map((blog) => blog.id);
}

function plan(scheduler: Scheduler): void {
  scheduler.running = scheduler.running
    .then(async () => {
      if (scheduler.stopped) return;
      const ids = await publishDueBlogs(scheduler.app);
      if (ids.length > 0) scheduler.log(`Scheduled publish: article${ids.length > 1 ? 's' : ''} ${ids.join(', ')} went live`);
      const next = await nextPublishAt(scheduler.app.db);
      if (scheduler.stopped) return;
      const wait = next === null ? LONGEST_SLEEP_MS : Math.min(Math.max(Date.parse(next) - Date.now(), 0), LONGEST_SLEEP_MS);
      if (scheduler.timer) clearTimeout(scheduler.timer);
      scheduler.timer = setTimeout(() => plan(scheduler), wait);
      scheduler.timer.unref();
    })
    .catch((error: unknown) => {
      console.error('[scheduler] scheduled publishing failed, trying again shortly:', error);
      if (scheduler.stopped) return;
      if (scheduler.timer) clearTimeout(scheduler.timer);
      scheduler.timer = setTimeout(() => plan(scheduler), 1_000);
      scheduler.timer.unref();
    });
}

export function createPublishScheduler(log: (line: string) => void = console.log): PublishScheduler {
  let scheduler: Scheduler | null = null;
  return {
    start(app) {
      scheduler = { app, timer: null, running: Promise.resolve(), stopped: false, log };
      plan(scheduler);
    },
    // A save scheduled an article: look again now, so its time is not slept through.
    wake() {
      if (scheduler && !scheduler.stopped) plan(scheduler);
    },
    async stop() {
      if (!scheduler) return;
      scheduler.stopped = true;
      if (scheduler.timer) clearTimeout(scheduler.timer);
      await scheduler.running;
    },
  };
}
