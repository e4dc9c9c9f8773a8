import type { SiteSettingsValues } from '../../shared/validation/settings.ts';

/**
 * The social links of the demo site: example profiles, so the demo shows every button. Removing
 * the demo content clears the links still holding these addresses (an empty link hides its button).
 */
export const DEMO_SOCIAL_LINKS: Partial<SiteSettingsValues> = {
  social_whatsapp: 'https://wa.me/15550100000',
  social_instagram: 'https://www.instagram.com/example.study.site/',
  social_youtube: 'https://www.youtube.com/@example-study-site',
  follow_facebook: 'https://www.facebook.com/example.study.site',
  follow_twitter: 'https://twitter.com/example_study',
  follow_instagram: 'https://www.instagram.com/example.study.site/',
  follow_youtube: 'https://www.youtube.com/@example-study-site',
};
