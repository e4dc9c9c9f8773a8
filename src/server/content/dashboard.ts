import type { Db } from '../db/client.ts';
import { countByStatus, latestComments, topArticlesSince, viewsPerDay } from '../db/repositories/dashboard.ts';

/** The admin dashboard: the last 30 days of views (every day, zeros included), the week's top articles, latest comments, counts. */

export const DASHBOARD_DAYS = 30;
export const TOP_OF_WEEK = 5;
export const LATEST_COMMENTS = 5;

const DAY_MS = 24 * 3600_000;
const dayOf = (time: number) => new Date(time).toISOString().slice(0, 10);

export interface Dashboard {
  days: Array<{ day: string; views: number }>;
  topOfWeek: Array<{ id: number; title: string; views: number }>;
  comments: Awaited<ReturnType<typeof latestComments>>;
  counts: Awaited<ReturnType<typeof countByStatus>>;
}

/** Every day of the window, oldest first, with 0 where nothing was viewed. */
export function fillDays(rows: Array<{ day: string; views: number }>, now: number, count = DASHBOARD_DAYS) {
  const byDay = new Map(rows.map((row) => [row.day, Number(row.views)]));
  return Array.from({ length: count }, (_, n) => {
    const day = dayOf(now - (count - 1 - n) * DAY_MS);
    return { day, views: byDay.get(day) ?? 0 };
  });
}

export async function getDashboard(db: Db, now = Date.now()): Promise<Dashboard> {
  const [views, top, comments, counts] = await Promise.all([
    viewsPerDay(db, dayOf(now - (DASHBOARD_DAYS - 1) * DAY_MS)),
    topArticlesSince(db, dayOf(now - 6 * DAY_MS), TOP_OF_WEEK),
    latestComments(db, LATEST_COMMENTS),
    countByStatus(db),
  ]);
  return {
    days: fillDays(views, now),
    topOfWeek: top.map((row) => ({ id: row.id, title: row.title, views: Number(row.views) })),
    comments,
    counts,
  };
}
