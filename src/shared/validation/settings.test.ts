import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, SETTINGS_MESSAGES, homeScreenName, suggestedBrandColor, validateSettingsInput } from './settings.ts';

describe('validateSettingsInput', () => {
  it('accepts the defaults and keeps fields the input leaves out', () => {
    expect(validateSettingsInput({}).errors).toEqual({});
    const { values, errors } = validateSettingsInput({ site_title: '  My   Notes ', brand_color: '#0F766E' });
    expect(errors).toEqual({});
    expect(values.site_title).toBe('My Notes');
    expect(values.brand_color).toBe('#0f766e');
    expect(values.meta_description).toBe(DEFAULT_SETTINGS.meta_description);
  });

  it('names every bad field with its message', () => {
    const { errors } = validateSettingsInput({
      site_title: ' ',
      tagline: 'x'.repeat(121),
      footer_text: '',
      meta_description: 'short',
      brand_color: 'blue',
      logo: 'https://elsewhere.example/logo.png',
      social_whatsapp: 'javascript:alert(1)',
      follow_twitter: 'twitter.com/me',
    });
    expect(errors).toEqual({
      site_title: SETTINGS_MESSAGES.titleRequired,
      tagline: SETTINGS_MESSAGES.taglineTooLong,
      footer_text: SETTINGS_MESSAGES.footerRequired,
      meta_description: SETTINGS_MESSAGES.descriptionLength,
      brand_color: SETTINGS_MESSAGES.colorFormat,
      logo: SETTINGS_MESSAGES.image('Logo'),
      social_whatsapp: SETTINGS_MESSAGES.socialLink('WhatsApp'),
      follow_twitter: SETTINGS_MESSAGES.socialLink('Twitter'),
    });
  });

  it('allows empty social links (the button is hidden) and uploads of this site as images', () => {
    const { errors } = validateSettingsInput({
      follow_facebook: '',
      social_youtube: 'https://www.youtube.com/@mychannel',
      favicon: '/uploads/images/abc123-w1600.webp',
    });
    expect(errors).toEqual({});
  });

  it('refuses a low-contrast brand colour and suggests the nearest shade that passes', () => {
    const { errors } = validateSettingsInput({ brand_color: '#38bdf8' });
    const suggestion = suggestedBrandColor('#38bdf8')!;
    expect(suggestion).toMatch(/^#[0-9a-f]{6}$/);
    expect(errors.brand_color).toContain('WCAG AA needs 4.5:1');
    expect(errors.brand_color).toContain(suggestion);
    expect(validateSettingsInput({ brand_color: suggestion }).errors).toEqual({});
    expect(suggestedBrandColor('#1d4ed8')).toBeNull();
  });
});

describe('the home-screen name', () => {
  it('is the short name the owner set, of at most 12 characters', () => {
    expect(validateSettingsInput({ short_name: '  Newcomer  ' }).values.short_name).toBe('Newcomer');
    expect(validateSettingsInput({ short_name: 'Thirteen char' }).errors.short_name).toBe(SETTINGS_MESSAGES.shortNameTooLong);
    expect(homeScreenName({ site_title: 'Newcomer Notes', short_name: 'NN Physics' })).toBe('NN Physics');
  });

  it('is made from whole words of the title, never cut inside a word', () => {
    expect(homeScreenName({ site_title: 'Study Site', short_name: '' })).toBe('Study Site');
    expect(homeScreenName({ site_title: 'Newcomer Notes', short_name: '' })).toBe('Newcomer');
    expect(homeScreenName({ site_title: 'My Maths Notes for Year 9', short_name: '' })).toBe('My Maths');
    expect(homeScreenName({ site_title: 'Extraordinarily Good Notes', short_name: '' })).toBe('EGN');
    expect(homeScreenName({ site_title: 'Supercalifragilistic', short_name: '' })).toBe('Supercalifra');
  });
});

describe('the site language setting', () => {
  it('is stored in canonical form and refused when it is not a language code', () => {
    expect(DEFAULT_SETTINGS.site_language).toBe('en');
    expect(validateSettingsInput({ site_language: ' he-il ' }).values.site_language).toBe('he-IL');
    expect(validateSettingsInput({ site_language: 'Arabic' }).errors.site_language).toBe(SETTINGS_MESSAGES.languageFormat);
    expect(validateSettingsInput({ site_language: '' }).errors.site_language).toBe(SETTINGS_MESSAGES.languageFormat);
  });
});
