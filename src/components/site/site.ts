/** Names and outside links of the public site, in one place so a self-hoster can change them. */
export const SITE_NAME = 'Study Site';
export const SITE_DESCRIPTION =
  'Free study material: clear articles, worked examples, video lessons and downloadable PDF notes for every subject.';

export interface SocialLink {
  name: string;
  href: string;
  className: string;
}

/** Footer "Follow Us": four social sites. */
export const FOLLOW_US: SocialLink[] = [
  { name: 'Facebook', href: 'https://www.facebook.com/', className: 'social-facebook' },
  { name: 'Twitter', href: 'https://twitter.com/', className: 'social-twitter' },
  { name: 'Instagram', href: 'https://www.instagram.com/', className: 'social-instagram' },
  { name: 'YouTube', href: 'https://www.youtube.com/', className: 'social-youtube' },
];

/** The floating social toggle (SPEC.md section 2). */
export const FLOATING_SOCIAL: SocialLink[] = [
  { name: 'WhatsApp', href: 'https://wa.me/', className: 'social-whatsapp' },
  { name: 'Instagram', href: 'https://www.instagram.com/', className: 'social-instagram' },
  { name: 'YouTube', href: 'https://www.youtube.com/', className: 'social-youtube' },
];

/** The address of a /blogs list with the given filters, omitting what is unset. */
export function blogsHref(params: { category?: number | null; search?: string | null; page?: number }): string {
  const query = new URLSearchParams();
  if (params.category) query.set('category', String(params.category));
  if (params.search) query.set('search', params.search);
  if (params.page && params.page > 1) query.set('page', String(params.page));
  const text = query.toString();
  return text ? `/blogs?${text}` : '/blogs';
}

/** The address a nav search goes to, or null for blank text (SPEC.md section 5: ignored). */
export function searchHref(text: string): string | null {
  const term = text.trim();
  return term === '' ? null : `/blogs?search=${encodeURIComponent(term)}`;
}

/** Share links of SPEC.md section 2, built from the page's canonical address. */
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
