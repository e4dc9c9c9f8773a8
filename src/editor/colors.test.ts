import { describe, expect, it } from 'vitest';
import { BACKGROUND_COLORS, TEXT_COLORS, toSafeColor } from './colors.ts';

describe('toSafeColor', () => {
  it.each(['#b91c1c', '#fff', '#11223344', 'rgb(185, 28, 28)', 'rgba(0,0,0,0.5)', 'red', 'RebeccaPurple'])(
    'keeps %s',
    (color) => {
      expect(toSafeColor(color)).toBe(color);
    },
  );

  it.each([
    'url(https://evil.example/x.png)',
    'expression(alert(1))',
    'var(--x)',
    'red; background: url(x)',
    '#12',
    'inherit',
    'transparent',
    '',
    'rgb(1,2)',
  ])('refuses %j', (color) => {
    expect(toSafeColor(color)).toBeNull();
  });

  it('refuses what is not a string', () => {
    expect(toSafeColor(undefined)).toBeNull();
    expect(toSafeColor(5)).toBeNull();
  });

  it('offers only allowed swatches', () => {
    for (const { value } of [...TEXT_COLORS, ...BACKGROUND_COLORS]) expect(toSafeColor(value)).toBe(value);
  });
});
