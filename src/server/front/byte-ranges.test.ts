import { describe, expect, it } from 'vitest';
import { ifRangeHolds, noneMatch, parseByteRange } from './byte-ranges.ts';

describe('parseByteRange', () => {
  it('reads the three single-range forms', () => {
    expect(parseByteRange('bytes=0-99', 1000)).toEqual({ start: 0, end: 99 });
    expect(parseByteRange('bytes=500-', 1000)).toEqual({ start: 500, end: 999 });
    expect(parseByteRange('bytes=-100', 1000)).toEqual({ start: 900, end: 999 });
  });

  it('clips an end past the file and a suffix longer than it', () => {
    expect(parseByteRange('bytes=990-5000', 1000)).toEqual({ start: 990, end: 999 });
    expect(parseByteRange('bytes=-5000', 1000)).toEqual({ start: 0, end: 999 });
  });

  it('calls a range starting past the end, or an empty suffix, unsatisfiable', () => {
    expect(parseByteRange('bytes=1000-', 1000)).toBe('unsatisfiable');
    expect(parseByteRange('bytes=1000-1001', 1000)).toBe('unsatisfiable');
    expect(parseByteRange('bytes=-0', 1000)).toBe('unsatisfiable');
    expect(parseByteRange('bytes=0-', 0)).toBe('unsatisfiable');
    expect(parseByteRange('bytes=-1', 0)).toBe('unsatisfiable');
  });

  it('ignores what it does not serve: no header, lists, other units, nonsense', () => {
    expect(parseByteRange(undefined, 1000)).toBeNull();
    expect(parseByteRange('bytes=0-1,5-6', 1000)).toBeNull();
    expect(parseByteRange('items=0-1', 1000)).toBeNull();
    expect(parseByteRange('bytes=-', 1000)).toBeNull();
    expect(parseByteRange('bytes=9-3', 1000)).toBeNull();
    expect(parseByteRange('bytes=a-b', 1000)).toBeNull();
    expect(parseByteRange('bytes=99999999999999999999-', 1000)).toBeNull();
  });
});

describe('validators', () => {
  it('If-None-Match compares weakly, lists and * included', () => {
    expect(noneMatch('"a"', '"a"')).toBe(true);
    expect(noneMatch('W/"a"', '"a"')).toBe(true);
    expect(noneMatch('"b", "a"', '"a"')).toBe(true);
    expect(noneMatch('*', '"a"')).toBe(true);
    expect(noneMatch('"b"', '"a"')).toBe(false);
    expect(noneMatch(undefined, '"a"')).toBe(false);
  });

  it('If-Range needs the same strong tag, or the exact Last-Modified of an old enough file', () => {
    const mtime = Date.UTC(2026, 0, 2, 3, 4, 5, 678);
    expect(ifRangeHolds(undefined, '"a"', mtime)).toBe(true);
    expect(ifRangeHolds('"a"', '"a"', mtime)).toBe(true);
    expect(ifRangeHolds('"b"', '"a"', mtime)).toBe(false);
    expect(ifRangeHolds('W/"a"', '"a"', mtime)).toBe(false);
    expect(ifRangeHolds('"a"', 'W/"a"', mtime)).toBe(false);
    const lastModified = new Date(mtime).toUTCString();
    expect(ifRangeHolds(lastModified, '"a"', mtime, mtime + 60_000)).toBe(true);
    expect(ifRangeHolds(lastModified, '"a"', mtime, mtime + 500)).toBe(false);
    expect(ifRangeHolds(new Date(mtime + 5000).toUTCString(), '"a"', mtime, mtime + 60_000)).toBe(false);
    expect(ifRangeHolds('not a date', '"a"', mtime)).toBe(false);
  });
});
