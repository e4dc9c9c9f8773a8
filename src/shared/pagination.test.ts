import { describe, expect, it } from 'vitest';
import { pageButtons, paginate, parsePageParam } from './pagination.ts';

describe('paginate', () => {
  it('splits items into pages of the given size', () => {
    expect(paginate(1, 6, 31)).toEqual({ page: 1, pageSize: 6, totalItems: 31, totalPages: 6, offset: 0 });
    expect(paginate(6, 6, 31)).toMatchObject({ totalPages: 6, offset: 30 });
  });

  it('counts an exact multiple without an empty last page', () => {
    expect(paginate(1, 6, 12).totalPages).toBe(2);
  });

  it('has one page when there is nothing to show', () => {
    expect(paginate(1, 6, 0)).toMatchObject({ totalPages: 1, offset: 0 });
  });

  it('with page size 1 has a page per item', () => {
    expect(paginate(7, 1, 31)).toMatchObject({ totalPages: 31, offset: 6 });
  });

  it('reports a page beyond the last as it is, so the route can answer 404', () => {
    const info = paginate(9, 6, 31);
    expect(info.page).toBeGreaterThan(info.totalPages);
  });
});

describe('parsePageParam', () => {
  it('treats a missing or empty value as page 1', () => {
    expect(parsePageParam(null)).toBe(1);
    expect(parsePageParam(undefined)).toBe(1);
    expect(parsePageParam('')).toBe(1);
  });

  it('accepts positive whole numbers', () => {
    expect(parsePageParam('1')).toBe(1);
    expect(parsePageParam('25')).toBe(25);
  });

  it.each([['0'], ['-1'], ['1.5'], ['1e2'], ['abc'], ['01'], ['9999999'], [' 2']])('refuses %j', (raw) => {
    expect(parsePageParam(raw)).toBeNull();
  });
});

describe('pageButtons', () => {
  it('shows every page when there are few', () => {
    expect(pageButtons(1, 1)).toEqual([1]);
    expect(pageButtons(3, 5)).toEqual([1, 2, 3, 4, 5]);
    expect(pageButtons(7, 7)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('keeps the first and last page and a window around the current one', () => {
    expect(pageButtons(10, 31)).toEqual([1, 'gap', 8, 9, 10, 11, 12, 'gap', 31]);
  });

  it('slides the window against the ends', () => {
    expect(pageButtons(1, 31)).toEqual([1, 2, 3, 4, 5, 6, 'gap', 31]);
    expect(pageButtons(31, 31)).toEqual([1, 'gap', 26, 27, 28, 29, 30, 31]);
  });

  it('always includes the current page and never exceeds the width', () => {
    for (let total = 1; total <= 40; total++) {
      for (let current = 1; current <= total; current++) {
        const buttons = pageButtons(current, total);
        expect(buttons).toContain(current);
        expect(buttons.filter((b) => b !== 'gap').length).toBeLessThanOrEqual(7);
      }
    }
  });
});
