import { afterEach, describe, expect, it } from 'vitest';
import { openMigratedDatabase } from '../../../tests/support/db.ts';
import { insertBlog } from '../db/repositories/blogs.ts';
import { addClicks } from '../db/repositories/clicks.ts';
import { buildBlogWrite } from '../../../tests/support/builders.ts';
import { fillDays, getDashboard } from './dashboard.ts';

let close: (() => void) | undefined;
afterEach(() => close?.());

describe('fillDays', () => {
  it('lists every day of the window, oldest first, zeros where nothing was viewed', () => {
    const days = fillDays([{ day: '2030-01-30', views: 4 }], Date.parse('2030-01-31T12:00:00Z'), 3);
    expect(days).toEqual([
      { day: '2030-01-29', views: 0 },
      { day: '2030-01-30', views: 4 },
      { day: '2030-01-31', views: 0 },
    ]);
  });
});

describe('getDashboard', () => {
  it('adds views per article per day, ranks the week and counts drafts and scheduled posts', async () => {
    const opened = await openMigratedDatabase();
    close = () => opened.sqlite.close();
    const { db } = opened;
    const a = await insertBlog(db, buildBlogWrite({ title: 'A' }), '');
    const b = await insertBlog(db, buildBlogWrite({ title: 'B' }), '');
    await insertBlog(db, buildBlogWrite({ title: 'Draft', status: 'draft' }), '');
    await insertBlog(db, buildBlogWrite({ title: 'Later', status: 'scheduled', publish_at: '2999-01-01T00:00:00.000Z' }), '');
    await addClicks(db, new Map([[a, 2]]), '2030-01-20'); // outside the week
    await addClicks(
      db,
      new Map([
        [a, 1],
        [b, 3],
      ]),
      '2030-01-30',
    );
    await addClicks(db, new Map([[a, 1]]), '2030-01-30');
    const dashboard = await getDashboard(db, Date.parse('2030-01-31T08:00:00Z'));
    expect(dashboard.days).toHaveLength(30);
    expect(dashboard.days.find((d) => d.day === '2030-01-30')?.views).toBe(5);
    expect(dashboard.days.find((d) => d.day === '2030-01-20')?.views).toBe(2);
    expect(dashboard.topOfWeek).toEqual([
      { id: b, title: 'B', views: 3 },
      { id: a, title: 'A', views: 2 },
    ]);
    expect(dashboard.counts).toEqual({ published: 2, draft: 1, scheduled: 1 });
  });
});
