import { describe, expect, it } from 'vitest';
import { parseId } from './ids.ts';

describe('parseId', () => {
  it.each([
    ['1', 1],
    ['42', 42],
    ['999999999999999', 999_999_999_999_999],
  ])('accepts the positive whole number %s', (raw, expected) => {
    expect(parseId(raw)).toBe(expected);
  });

  it.each([
    [''],
    ['0'],
    ['-1'],
    ['01'],
    ['1e3'],
    ['1.0'],
    ['0x10'],
    [' 1'],
    ['1 '],
    ['1 OR 1=1'],
    ["1' OR '1'='1"],
    ['12345678901234567890'],
    ['9999999999999999'],
    ['abc'],
    ['１２'],
  ])('refuses %j', (raw) => {
    expect(parseId(raw)).toBeNull();
  });

  it('refuses a missing value', () => {
    expect(parseId(null)).toBeNull();
    expect(parseId(undefined)).toBeNull();
  });
});
