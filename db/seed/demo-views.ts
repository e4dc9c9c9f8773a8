/**
 * A demo article's views spread over the days before today, so the dashboard's 30-day chart of a
 * fresh demo site has the shape of a real one (weekdays busier than weekends, newer articles read
 * more often) instead of a flat line at zero. Today is left to real readers.
 */
export const DEMO_VIEW_DAYS = 30;

export interface DayViews {
  /** UTC day, YYYY-MM-DD. */
  day: string;
  views: number;
}

const DAY_MS = 24 * 3600 * 1000;

/**
 * Splits `total` views over the `DEMO_VIEW_DAYS` days before `today`, never before the day the
 * article was created. Deterministic (the same article gets the same days on every seed), and the
 * days add up to `total` exactly.
 */
export function demoViewsByDay(total: number, createdAt: string, today: Date, salt: number): DayViews[] {
  const firstDay = Math.max(Date.parse(createdAt.slice(0, 10)), dayStart(today) - DEMO_VIEW_DAYS * DAY_MS);
  const days: Array<{ day: string; weight: number }> = [];
  for (let time = dayStart(today) - DAY_MS; time >= firstDay; time -= DAY_MS) {
    const weekday = new Date(time).getUTCDay();
    const weekend = weekday === 0 || weekday === 6;
    const age = (dayStart(today) - time) / DAY_MS;
    // A little uneven, as readers are; the salt keeps articles from moving in step.
    const jitter = 1 + (((salt * 31 + age * 17) % 13) - 6) / 20;
    days.push({ day: new Date(time).toISOString().slice(0, 10), weight: (weekend ? 0.55 : 1) * (1 + 1 / age) * jitter });
  }
  if (days.length === 0 || total <= 0) return [];
  const sum = days.reduce((all, d) => all + d.weight, 0);
  const spread = days.map((d) => ({ day: d.day, views: Math.floor((total * d.weight) / sum) }));
  // What rounding down left goes to the most recent days, one each.
  let left = total - spread.reduce((all, d) => all + d.views, 0);
  for (let i = 0; left > 0; i = (i + 1) % spread.length, left--) spread[i]!.views++;
  return spread.filter((d) => d.views > 0).reverse();
}

function dayStart(date: Date): number {
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate());
}
