import { describe, expect, it } from 'vitest';
import {
  adjustBrandColor,
  darken,
  contrastRatio,
  parseHexColor,
  relativeLuminance,
  toHexColor,
  worstBrandContrast,
  AA_TEXT_RATIO,
} from './contrast.ts';

const rgb = (hex: string) => parseHexColor(hex)!;

describe('WCAG contrast maths', () => {
  it('parses six- and three-digit hex colours in any case, and nothing else', () => {
    expect(parseHexColor('#1D4ED8')).toEqual({ r: 29, g: 78, b: 216 });
    expect(parseHexColor('#fff')).toEqual({ r: 255, g: 255, b: 255 });
    for (const bad of ['1d4ed8', '#12', '#12345', '#ggg', 'red', 'rgb(0,0,0)', '#1234567']) expect(parseHexColor(bad)).toBeNull();
    expect(toHexColor({ r: 29, g: 78, b: 216 })).toBe('#1d4ed8');
  });

  it('gives the luminance of black, white and a mid grey as WCAG defines it', () => {
    expect(relativeLuminance(rgb('#000000'))).toBe(0);
    expect(relativeLuminance(rgb('#ffffff'))).toBe(1);
    // #777777: (0.4667 + 0.055) / 1.055 ^ 2.4 = 0.1845
    expect(relativeLuminance(rgb('#777777'))).toBeCloseTo(0.1845, 3);
  });

  it('gives the ratios published for well-known pairs', () => {
    expect(contrastRatio(rgb('#000'), rgb('#fff'))).toBeCloseTo(21, 5);
    expect(contrastRatio(rgb('#fff'), rgb('#fff'))).toBe(1);
    // #767676 is the classic lightest grey that passes AA on white (4.54:1); #777777 fails (4.48:1).
    expect(contrastRatio(rgb('#767676'), rgb('#fff'))).toBeCloseTo(4.54, 2);
    expect(contrastRatio(rgb('#777777'), rgb('#fff'))).toBeCloseTo(4.48, 2);
    expect(contrastRatio(rgb('#1d4ed8'), rgb('#fff'))).toBeCloseTo(6.7, 1);
    // Symmetric.
    expect(contrastRatio(rgb('#fff'), rgb('#1d4ed8'))).toBe(contrastRatio(rgb('#1d4ed8'), rgb('#fff')));
  });

  it('judges a brand colour by its worst background (the page background is a shade darker than white)', () => {
    expect(worstBrandContrast(rgb('#1d4ed8'))).toBeGreaterThanOrEqual(AA_TEXT_RATIO);
    expect(worstBrandContrast(rgb('#767676'))).toBeLessThan(contrastRatio(rgb('#767676'), rgb('#fff')));
    expect(worstBrandContrast(rgb('#38bdf8'))).toBeLessThan(AA_TEXT_RATIO);
  });

  it('adjusts a light colour to the nearest darker shade that passes, and keeps one that passes', () => {
    expect(adjustBrandColor(rgb('#1d4ed8'))).toEqual(rgb('#1d4ed8'));
    const adjusted = adjustBrandColor(rgb('#38bdf8'));
    expect(worstBrandContrast(adjusted)).toBeGreaterThanOrEqual(AA_TEXT_RATIO);
    expect(toHexColor(adjusted)).toBe('#247ba1');
    // The shade one percent lighter fails: it is the nearest that passes.
    expect(worstBrandContrast(parseHexColor(toHexColor(darken(rgb('#38bdf8'), 0.34)))!)).toBeLessThan(AA_TEXT_RATIO);
    expect(toHexColor(darken(rgb('#38bdf8'), 0.35))).toBe('#247ba1');
    // Its hue stays: blue stays the largest channel.
    expect(adjusted.b).toBeGreaterThan(adjusted.r);
    expect(worstBrandContrast(adjustBrandColor(rgb('#ffffff')))).toBeGreaterThanOrEqual(AA_TEXT_RATIO);
  });
});
