/**
 * Colours an article may carry in `color` / `background-color` styles. The same shapes the
 * server's sanitizer keeps: hex, rgb()/rgba() and plain colour names. Anything else (url(),
 * expression(), var(), several values) is dropped while parsing, so it never reaches the HTML.
 */
const COLOR = /^(#[0-9a-f]{3,8}|rgba?\(\s*\d{1,3}%?\s*,\s*\d{1,3}%?\s*,\s*\d{1,3}%?\s*(,\s*(0|1|0?\.\d+))?\s*\)|[a-z]{3,20})$/i;

/** The colour as written when it is an allowed one, else null. */
export function toSafeColor(raw: unknown): string | null {
  if (typeof raw !== 'string') return null;
  const value = raw.trim();
  if (!COLOR.test(value)) return null;
  // Keywords that only make sense in a cascade are not colours of their own.
  if (/^(inherit|initial|unset|revert|currentcolor|transparent)$/i.test(value)) return null;
  return value;
}

export interface NamedColor {
  name: string;
  value: string;
}

/** The toolbar's swatches: readable on white as text, and light enough as a highlight. */
export const TEXT_COLORS: NamedColor[] = [
  { name: 'Red', value: '#b91c1c' },
  { name: 'Orange', value: '#c2410c' },
  { name: 'Green', value: '#15803d' },
  { name: 'Blue', value: '#1d4ed8' },
  { name: 'Purple', value: '#7e22ce' },
  { name: 'Grey', value: '#4b5563' },
];

export const BACKGROUND_COLORS: NamedColor[] = [
  { name: 'Yellow', value: '#fef08a' },
  { name: 'Green', value: '#bbf7d0' },
  { name: 'Blue', value: '#bfdbfe' },
  { name: 'Pink', value: '#fbcfe8' },
  { name: 'Orange', value: '#fed7aa' },
  { name: 'Grey', value: '#e5e7eb' },
];
