/**
 * WCAG 2.x contrast maths for the brand colour (https://www.w3.org/TR/WCAG22/#dfn-contrast-ratio).
 * Pure: the settings form and the server judge a colour with the same numbers.
 */

export interface Rgb {
  r: number;
  g: number;
  b: number;
}

/** AA for normal-size text: what white button text on the brand colour and brand-coloured links need. */
export const AA_TEXT_RATIO = 4.5;

/** `#1d4ed8` or `#17f` (any letter case), else null. */
export function parseHexColor(value: string): Rgb | null {
  const match = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(value.trim());
  if (!match) return null;
  let hex = match[1]!;
  if (hex.length === 3) hex = [...hex].map((c) => c + c).join('');
  const n = Number.parseInt(hex, 16);
  return { r: (n >> 16) & 255, g: (n >> 8) & 255, b: n & 255 };
}

export function toHexColor({ r, g, b }: Rgb): string {
  return `#${[r, g, b].map((c) => Math.round(c).toString(16).padStart(2, '0')).join('')}`;
}

/** sRGB channel (0-255) to linear light, with WCAG's threshold. */
function linear(channel: number): number {
  const c = channel / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

export function relativeLuminance({ r, g, b }: Rgb): number {
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

/** (lighter + 0.05) / (darker + 0.05): 1 for equal colours, 21 for black on white. */
export function contrastRatio(a: Rgb, b: Rgb): number {
  const [la, lb] = [relativeLuminance(a), relativeLuminance(b)];
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

/**
 * What the brand colour is used against in the light theme (site.css): white text on brand
 * buttons and the social buttons, and brand-coloured links on the page and card backgrounds.
 */
export const BRAND_BACKGROUNDS: ReadonlyArray<{ name: string; hex: string }> = [
  { name: 'white text', hex: '#ffffff' },
  { name: 'the page background', hex: '#f8fafc' },
];

/** The lowest ratio of the colour against every background it meets. */
export function worstBrandContrast(color: Rgb): number {
  return Math.min(...BRAND_BACKGROUNDS.map((bg) => contrastRatio(color, parseHexColor(bg.hex)!)));
}

/** Mixes the colour towards black by `amount` (0..1), keeping its hue. */
export function darken(color: Rgb, amount: number): Rgb {
  const keep = 1 - amount;
  return { r: color.r * keep, g: color.g * keep, b: color.b * keep };
}

/**
 * The nearest darker shade of the colour that passes AA on every brand background (the colour
 * itself when it already does). Darkening only raises contrast against light backgrounds, so the
 * first step that passes is the closest.
 */
export function adjustBrandColor(color: Rgb, ratio = AA_TEXT_RATIO): Rgb {
  for (let step = 0; step <= 100; step++) {
    const candidate = darken(color, step / 100);
    const rounded = parseHexColor(toHexColor(candidate))!;
    if (worstBrandContrast(rounded) >= ratio) return rounded;
  }
  return { r: 0, g: 0, b: 0 };
}

/** The hover shade of buttons: a third darker. */
export function brandDark(color: Rgb): Rgb {
  return parseHexColor(toHexColor(darken(color, 0.35)))!;
}
