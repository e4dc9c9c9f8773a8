import { describe, expect, it } from 'vitest';
import { formatDate } from './dates.ts';

const intl = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });

describe('a date as readers see it', () => {
  it('reads as the en-GB formatter writes it, every day from 1900 to 2200', () => {
    const day = 86_400_000;
    for (let time = Date.UTC(1900, 0, 1); time <= Date.UTC(2200, 0, 1); time += day) {
      const iso = new Date(time + 13 * 3_600_000).toISOString();
      expect(formatDate(iso)).toBe(intl.format(new Date(iso)));
    }
  });

  it('takes the UTC day of a time written with an offset, and odd years through the formatter', () => {
    expect(formatDate('2026-09-05T23:30:00-05:00')).toBe('6 Sept 2026');
    expect(formatDate('2026-11-22')).toBe('22 Nov 2026');
    for (const iso of ['0999-12-31T00:00:00Z', '+012345-01-01T00:00:00Z', '-000050-03-01T00:00:00Z'])
      expect(formatDate(iso)).toBe(intl.format(new Date(iso)));
  });

  it('is null for a missing or unreadable date', () => {
    expect(formatDate(null)).toBeNull();
    expect(formatDate('')).toBeNull();
    expect(formatDate('not a date')).toBeNull();
  });
});
