import { describe, expect, it } from 'vitest';
import { canonicalLanguage, languageDirection, openGraphLocale } from './site-language.ts';

describe('the site language', () => {
  it('accepts BCP 47 tags in their canonical form and refuses what is not one', () => {
    expect(canonicalLanguage(' AR-eg ')).toBe('ar-EG');
    expect(canonicalLanguage('zh-hant-tw')).toBe('zh-Hant-TW');
    expect(canonicalLanguage('en')).toBe('en');
    for (const bad of ['', 'e', 'english', 'en-', 'en_GB', 'x-private', '12', 'ar eg', '<b>'])
      expect(canonicalLanguage(bad), bad).toBeNull();
  });

  it('is written right to left for Arabic, Hebrew, Persian, Urdu and any tag in an RTL script', () => {
    for (const rtl of ['ar', 'ar-EG', 'he', 'fa', 'ur', 'ps', 'yi', 'ku-Arab', 'az-Arab', 'pa-Arab'])
      expect(languageDirection(rtl), rtl).toBe('rtl');
    for (const ltr of ['en', 'fr-CA', 'ku', 'ku-Latn', 'az', 'hi', 'zh-Hant-TW', 'ur-Latn'])
      expect(languageDirection(ltr), ltr).toBe('ltr');
  });

  it('gives share cards a language_TERRITORY locale', () => {
    expect(openGraphLocale('en')).toBe('en_GB');
    expect(openGraphLocale('pt-BR')).toBe('pt_BR');
    expect(openGraphLocale('zh-Hant-TW')).toBe('zh_TW');
    expect(openGraphLocale('ar')).toBe('ar');
  });
});
