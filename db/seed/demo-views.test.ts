import { describe, expect, it } from 'vitest';
import { DEMO_VIEW_DAYS, demoViewsByDay } from './demo-views.ts';

const today = new Date('2026-11-27T10:00:00Z');

describe('demo views by day', () => {
  it('add up to the total, over the days before today, oldest first', () => {
    const days = demoViewsByDay(197, '2026-01-01T00:00:00Z', today, 3);
    expect(days.reduce((all, d) => all + d.views, 0)).toBe(197);
    expect(days.length).toBeGreaterThan(20);
    expect(days.length).toBeLessThanOrEqual(DEMO_VIEW_DAYS);
    expect(days.at(-1)!.day).toBe('2026-11-26');
    expect(days[0]!.day >= '2026-10-28').toBe(true);
    expect([...days].sort((a, b) => a.day.localeCompare(b.day))).toEqual(days);
  });

  it('start no earlier than the article, and vary from day to day', () => {
    const days = demoViewsByDay(150, '2026-11-20T15:00:00Z', today, 7);
    expect(days[0]!.day >= '2026-11-20').toBe(true);
    expect(days.reduce((all, d) => all + d.views, 0)).toBe(150);
    expect(new Set(demoViewsByDay(300, '2026-01-01T00:00:00Z', today, 1).map((d) => d.views)).size).toBeGreaterThan(3);
  });

  it('give nothing to an article created today or with no views', () => {
    expect(demoViewsByDay(40, '2026-11-27T08:00:00Z', today, 1)).toEqual([]);
    expect(demoViewsByDay(0, '2026-01-01T00:00:00Z', today, 1)).toEqual([]);
  });
});
