/**
 * The site's language (a BCP 47 tag such as `en`, `ar` or `pt-BR`, a setting) and the writing
 * direction that follows from it: `<html lang dir>` on every page, the manifest's `lang` and
 * `dir`, and the share cards' locale. Browser-safe: the settings form checks with the same code.
 */

export type TextDirection = 'ltr' | 'rtl';

/** Languages written right to left by default (ISO 639 codes); a script subtag overrides them. */
const RTL_LANGUAGES = new Set([
  'ar',
  'arc',
  'ckb',
  'dv',
  'fa',
  'ha-Arab',
  'he',
  'iw',
  'ks',
  'ku-Arab',
  'ps',
  'sd',
  'syr',
  'ug',
  'ur',
  'yi',
]);
/** Scripts written right to left (ISO 15924): `az-Arab` is RTL, `ku-Latn` is not. */
const RTL_SCRIPTS = new Set(['Adlm', 'Arab', 'Hebr', 'Mand', 'Nkoo', 'Rohg', 'Samr', 'Syrc', 'Thaa']);

/**
 * The canonical form of a language tag (`AR-eg` gives `ar-EG`), or null when it is not a
 * well-formed tag. Private-use and grandfathered forms are refused: a page's `lang` should name a
 * language a browser and a screen reader know.
 */
export function canonicalLanguage(value: string): string | null {
  const trimmed = value.trim();
  if (!/^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/.test(trimmed)) return null;
  try {
    const [canonical] = Intl.getCanonicalLocales(trimmed);
    return canonical ?? null;
  } catch {
    return null;
  }
}

/** The direction text in this language is written in (an unknown or malformed tag is LTR). */
export function languageDirection(language: string): TextDirection {
  const parts = language.split('-');
  const primary = parts[0]!.toLowerCase();
  const script = parts.slice(1).find((part) => /^[A-Za-z]{4}$/.test(part));
  if (script) {
    const name = script[0]!.toUpperCase() + script.slice(1).toLowerCase();
    return RTL_SCRIPTS.has(name) || RTL_LANGUAGES.has(`${primary}-${name}`) ? 'rtl' : 'ltr';
  }
  return RTL_LANGUAGES.has(primary) ? 'rtl' : 'ltr';
}

/**
 * The OpenGraph locale (`language_TERRITORY`): the tag's region when it has one; English without
 * one stays `en_GB`, the locale the site always declared.
 */
export function openGraphLocale(language: string): string {
  const parts = language.split('-');
  const primary = parts[0]!.toLowerCase();
  const region = parts.slice(1).find((part) => /^([A-Za-z]{2}|\d{3})$/.test(part));
  if (region) return `${primary}_${region.toUpperCase()}`;
  return primary === 'en' ? 'en_GB' : primary;
}
