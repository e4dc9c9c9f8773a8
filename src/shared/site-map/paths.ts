/**
 * Every address the site links to, built here only, so the server, the Astro pages and the
 * islands cannot drift apart (a page stored under one address and linked under another would be
 * rendered twice, or never refreshed). `npm run lint` refuses a public path spelled anywhere
 * else (scripts/site-paths.mjs).
 *
 * Page 1 of a list never carries `page=`: its address is the list's own, the one the page store
 * keeps and every "first page" link already points to.
 */

/** The public pages that take no parameter. */
export const SITE_PAGES = {
  home: '/',
  blogs: '/blogs',
  download: '/download',
  about: '/about',
  contact: '/contact',
} as const;

/** The stored non-HTML answers. */
export const SITE_FILES = {
  sitemap: '/sitemap.xml',
  feed: '/rss.xml',
  robots: '/robots.txt',
  manifest: '/manifest.webmanifest',
} as const;

/** Sign-in and the reader's own pages: never stored, so the page store does not list them. */
export const ACCOUNT_PAGES = {
  login: '/login',
  logout: '/logout',
  register: '/register',
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password',
  confirmEmail: '/confirm-email',
  setup: '/setup',
  account: '/account',
  twoFactor: '/account#two-factor',
  library: '/library',
  offline: '/offline',
} as const;

export const ADMIN_HOME = '/admin';

/** Downloads page `page` (page 1 is `/download`). */
export function downloadHref(page = 1): string {
  return page > 1 ? `${SITE_PAGES.download}?page=${page}` : SITE_PAGES.download;
}

/** Home page `page` (page 1 is `/`). */
export function homeHref(page = 1): string {
  return page > 1 ? `/?page=${page}` : SITE_PAGES.home;
}

/**
 * A /blogs list with the given filters, omitting what is unset. Form encoding (`x+y`), as the
 * search form submits it, so a result page's links match the address the reader arrived at.
 */
export function blogsHref(params: { category?: number | null; search?: string | null; page?: number }): string {
  const query = new URLSearchParams();
  if (params.category) query.set('category', String(params.category));
  if (params.search) query.set('search', params.search);
  if (params.page && params.page > 1) query.set('page', String(params.page));
  const text = query.toString();
  return text ? `${SITE_PAGES.blogs}?${text}` : SITE_PAGES.blogs;
}

export const categoryHref = (categoryId: number, page = 1) => blogsHref({ category: categoryId, page });

/**
 * The address a nav search goes to, or null for blank text (docs/product.md#validation-rules:
 * ignored). Percent encoding (`x%20y`): the script-driven search has always navigated so.
 */
export function searchHref(text: string): string | null {
  const term = text.trim();
  return term === '' ? null : `${SITE_PAGES.blogs}?search=${encodeURIComponent(term)}`;
}

const ARTICLE_PREFIX = '/blog/';

/** An article's page; `position` opens it where the reader left off (ReadingPosition reads `#at=`). */
export function articleHref(id: number, position?: number): string {
  return position === undefined ? `${ARTICLE_PREFIX}${id}` : `${ARTICLE_PREFIX}${id}#at=${position}`;
}

/** A mailed one-time link's path: the token is base64url, so encoding leaves it as it is. */
export const resetPasswordHref = (token: string) => `${ACCOUNT_PAGES.resetPassword}?token=${encodeURIComponent(token)}`;
export const confirmEmailHref = (token: string) => `${ACCOUNT_PAGES.confirmEmail}?token=${encodeURIComponent(token)}`;
export const setupHref = (token: string) => `${ACCOUNT_PAGES.setup}?token=${encodeURIComponent(token)}`;

export const adminEditHref = (blogId: number) => `${ADMIN_HOME}/edit-blog/${blogId}`;
export const adminPreviewHref = (blogId: number) => `${ADMIN_HOME}/preview/${blogId}`;
/** The About and Contact editor, opened on one of them. */
export const adminInfoPageHref = (slug: string) => `${ADMIN_HOME}/pages?page=${encodeURIComponent(slug)}`;
