import type { SiteSettingsValues, SocialField } from '../../shared/validation/settings.ts';
import { SOCIAL_LABELS } from '../../shared/validation/settings.ts';

/** The public site's names and outside links come from the site settings (src/server/content/site-settings.ts). */

export interface SocialLink {
  name: string;
  href: string;
  className: string;
}

const FOLLOW_FIELDS: SocialField[] = ['follow_facebook', 'follow_twitter', 'follow_instagram', 'follow_youtube'];
const FLOATING_FIELDS: SocialField[] = ['social_whatsapp', 'social_instagram', 'social_youtube'];

function linksOf(settings: SiteSettingsValues, fields: SocialField[]): SocialLink[] {
  return fields.flatMap((field) => {
    const href = safeHref(settings[field]);
    if (!href) return []; // an empty link hides its button
    const name = SOCIAL_LABELS[field];
    return [{ name, href, className: `social-${name.toLowerCase()}` }];
  });
}

/** Footer "Follow Us": the social profiles the admin filled in. */
export const followUsLinks = (settings: SiteSettingsValues) => linksOf(settings, FOLLOW_FIELDS);

/** The floating social toggle (docs/product.md#public-screens): WhatsApp, Instagram, YouTube, those filled in. */
export const floatingSocialLinks = (settings: SiteSettingsValues) => linksOf(settings, FLOATING_FIELDS);

/** A page's full title: the page's own title, then the site's (the site's home page shows it alone). */
export function fullTitle(title: string, siteTitle: string): string {
  return title === siteTitle ? title : `${title} | ${siteTitle}`;
}

/** Share links of docs/product.md#public-screens, built from the page's canonical address. */
export function shareLinks(url: string, title: string): Array<{ name: string; href: string }> {
  const u = encodeURIComponent(url);
  const t = encodeURIComponent(title);
  return [
    { name: 'Facebook', href: `https://www.facebook.com/sharer/sharer.php?u=${u}` },
    { name: 'Twitter', href: `https://twitter.com/intent/tweet?url=${u}&text=${t}` },
    { name: 'LinkedIn', href: `https://www.linkedin.com/sharing/share-offsite/?url=${u}` },
    { name: 'WhatsApp', href: `https://wa.me/?text=${encodeURIComponent(`${title} ${url}`)}` },
  ];
}

/**
 * A link stored on a blog (PDF, payment, form) as it may appear in an href: http(s) addresses and
 * site paths only. Anything else (javascript:, data:, a protocol-relative //host) gives null.
 */
export function safeHref(link: string | null | undefined): string | null {
  const text = link?.trim();
  if (!text) return null;
  if (text.startsWith('/') && !text.startsWith('//')) return text;
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}
