import { AA_TEXT_RATIO, adjustBrandColor, parseHexColor, toHexColor, worstBrandContrast } from '../contrast.ts';
import { canonicalLanguage } from '../site-language.ts';
import { isHttpUrl, readText, type FieldErrors, type ValidationResult } from './common.ts';

/**
 * The site settings (`/admin/settings`, `PUT /api/admin/settings`): one schema for the form and
 * the endpoint. An empty social link hides its button; images are uploads of this site.
 */

export const SOCIAL_FIELDS = [
  'social_whatsapp',
  'social_instagram',
  'social_youtube',
  'follow_facebook',
  'follow_twitter',
  'follow_instagram',
  'follow_youtube',
] as const;
export type SocialField = (typeof SOCIAL_FIELDS)[number];

export const IMAGE_FIELDS = ['logo', 'favicon', 'share_image'] as const;
export type ImageField = (typeof IMAGE_FIELDS)[number];

export interface SiteSettingsValues {
  site_title: string;
  /** The name under the icon on a phone's home screen; empty: made from the title. */
  short_name: string;
  tagline: string;
  /** A BCP 47 tag (`en`, `ar`, `pt-BR`): every page's `lang`, and its direction (site-language.ts). */
  site_language: string;
  footer_text: string;
  meta_description: string;
  brand_color: string;
  logo: string;
  favicon: string;
  share_image: string;
  social_whatsapp: string;
  social_instagram: string;
  social_youtube: string;
  follow_facebook: string;
  follow_twitter: string;
  follow_instagram: string;
  follow_youtube: string;
}

export type SettingKey = keyof SiteSettingsValues;

export const SETTINGS_LIMITS = {
  site_title: 60,
  short_name: 12,
  tagline: 120,
  footer_text: 600,
  meta_description_min: 20,
  meta_description: 300,
} as const;

export const DEFAULT_BRAND_COLOR = '#1d4ed8';

/** The site as it ships: today's texts, no images, no social links. */
export const DEFAULT_SETTINGS: SiteSettingsValues = {
  site_title: 'Study Site',
  short_name: '',
  tagline: 'Free study material for every subject',
  site_language: 'en',
  footer_text:
    'We share free study material: clear explanations, worked examples, video lessons and PDF notes you can download and keep. New articles arrive every week.',
  meta_description:
    'Free study material: clear articles, worked examples, video lessons and downloadable PDF notes for every subject.',
  brand_color: DEFAULT_BRAND_COLOR,
  logo: '',
  favicon: '',
  share_image: '',
  social_whatsapp: '',
  social_instagram: '',
  social_youtube: '',
  follow_facebook: '',
  follow_twitter: '',
  follow_instagram: '',
  follow_youtube: '',
};

export const SETTING_KEYS = Object.keys(DEFAULT_SETTINGS) as SettingKey[];

export const SOCIAL_LABELS: Record<SocialField, string> = {
  social_whatsapp: 'WhatsApp',
  social_instagram: 'Instagram',
  social_youtube: 'YouTube',
  follow_facebook: 'Facebook',
  follow_twitter: 'Twitter',
  follow_instagram: 'Instagram',
  follow_youtube: 'YouTube',
};

export const IMAGE_LABELS: Record<ImageField, string> = {
  logo: 'Logo',
  favicon: 'Site icon',
  share_image: 'Default share image',
};

export const SETTINGS_MESSAGES = {
  titleRequired: 'Site title is required.',
  titleTooLong: `Site title must be at most ${SETTINGS_LIMITS.site_title} characters.`,
  shortNameTooLong: `Short name must be at most ${SETTINGS_LIMITS.short_name} characters.`,
  languageFormat: 'Site language must be a language code such as en, ar, he or pt-BR.',
  taglineTooLong: `Tagline must be at most ${SETTINGS_LIMITS.tagline} characters.`,
  footerRequired: 'The "Our Blog" text is required.',
  footerTooLong: `The "Our Blog" text must be at most ${SETTINGS_LIMITS.footer_text} characters.`,
  descriptionLength: `Meta description must be ${SETTINGS_LIMITS.meta_description_min} to ${SETTINGS_LIMITS.meta_description} characters.`,
  colorFormat: 'Brand colour must be a hex colour such as #1d4ed8.',
  socialLink: (label: string) => `${label} link must be a full http(s) address, or empty to hide the button.`,
  image: (label: string) => `${label} must be an image uploaded to this site.`,
  invalid: 'Some settings need fixing.',
  saved: 'Settings saved.',
} as const;

/**
 * The message for a brand colour that fails AA, with the nearest passing shade to use instead.
 * The form offers that shade as a one-click fix.
 */
export function brandContrastMessage(color: string, ratio: number, suggestion: string): string {
  return `Brand colour ${color} has a contrast of ${ratio.toFixed(2)}:1 with white text and the page background; WCAG AA needs ${AA_TEXT_RATIO}:1. Use a darker shade such as ${suggestion}.`;
}

/** The shade suggested for a colour that fails, or null when it passes (or is not a colour). */
export function suggestedBrandColor(value: string): string | null {
  const color = parseHexColor(value);
  if (!color || worstBrandContrast(color) >= AA_TEXT_RATIO) return null;
  return toHexColor(adjustBrandColor(color));
}

// The widest stored variant of an upload of this site (src/shared/images.ts names them).
const UPLOADED_IMAGE = /^\/uploads\/images\/[a-z0-9]+-w\d+\.webp$/;

const oneLine = (value: unknown) => readText(value).replace(/\s+/g, ' ');

export type SettingsInput = Partial<Record<SettingKey, unknown>>;

/** Every field is read; a field left out of the input keeps `current` (the stored value). */
export function validateSettingsInput(
  input: SettingsInput,
  current: SiteSettingsValues = DEFAULT_SETTINGS,
): ValidationResult<SiteSettingsValues> {
  const errors: FieldErrors = {};
  const pick = (key: SettingKey) => (key in input ? input[key] : current[key]);
  const values = { ...current };

  values.site_title = oneLine(pick('site_title'));
  if (values.site_title === '') errors.site_title = SETTINGS_MESSAGES.titleRequired;
  else if (values.site_title.length > SETTINGS_LIMITS.site_title) errors.site_title = SETTINGS_MESSAGES.titleTooLong;

  values.short_name = oneLine(pick('short_name'));
  if ([...values.short_name].length > SETTINGS_LIMITS.short_name) errors.short_name = SETTINGS_MESSAGES.shortNameTooLong;

  values.tagline = oneLine(pick('tagline'));
  if (values.tagline.length > SETTINGS_LIMITS.tagline) errors.tagline = SETTINGS_MESSAGES.taglineTooLong;

  const language = canonicalLanguage(readText(pick('site_language')));
  if (language) values.site_language = language;
  else errors.site_language = SETTINGS_MESSAGES.languageFormat;

  values.footer_text = readText(pick('footer_text'));
  if (values.footer_text === '') errors.footer_text = SETTINGS_MESSAGES.footerRequired;
  else if (values.footer_text.length > SETTINGS_LIMITS.footer_text) errors.footer_text = SETTINGS_MESSAGES.footerTooLong;

  values.meta_description = oneLine(pick('meta_description'));
  const descriptionLength = values.meta_description.length;
  if (descriptionLength < SETTINGS_LIMITS.meta_description_min || descriptionLength > SETTINGS_LIMITS.meta_description)
    errors.meta_description = SETTINGS_MESSAGES.descriptionLength;

  values.brand_color = readText(pick('brand_color')).toLowerCase();
  const color = parseHexColor(values.brand_color);
  if (!color) errors.brand_color = SETTINGS_MESSAGES.colorFormat;
  else {
    values.brand_color = toHexColor(color);
    const suggestion = suggestedBrandColor(values.brand_color);
    if (suggestion) errors.brand_color = brandContrastMessage(values.brand_color, worstBrandContrast(color), suggestion);
  }

  for (const key of IMAGE_FIELDS) {
    values[key] = readText(pick(key));
    if (values[key] !== '' && !UPLOADED_IMAGE.test(values[key])) errors[key] = SETTINGS_MESSAGES.image(IMAGE_LABELS[key]);
  }
  for (const key of SOCIAL_FIELDS) {
    values[key] = readText(pick(key));
    if (values[key] !== '' && !isHttpUrl(values[key])) errors[key] = SETTINGS_MESSAGES.socialLink(SOCIAL_LABELS[key]);
  }
  return { values, errors };
}

/**
 * The home-screen name: the owner's short name, else as many whole words of the title as fit in
 * SETTINGS_LIMITS.short_name characters ("Newcomer Notes for Physics" gives "Newcomer"), else the
 * initials of a title whose first word alone is too long; a single over-long word is the one case
 * that must be cut.
 */
export function homeScreenName(settings: Pick<SiteSettingsValues, 'site_title' | 'short_name'>): string {
  const limit = SETTINGS_LIMITS.short_name;
  if (settings.short_name) return settings.short_name;
  const title = settings.site_title.trim();
  if ([...title].length <= limit) return title;
  const words = title.split(/\s+/);
  let name = '';
  for (const word of words) {
    const next = name ? `${name} ${word}` : word;
    if ([...next].length > limit) break;
    name = next;
  }
  if (name) return name;
  if (words.length > 1)
    return words
      .map((word) => [...word][0]!.toUpperCase())
      .join('')
      .slice(0, limit);
  return [...title].slice(0, limit).join('');
}
