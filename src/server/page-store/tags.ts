/**
 * Tags name the data a page shows. A page declares its tags when it renders; a change names the
 * tags it touched, and every stored page carrying one of them is re-rendered (DESIGN.md section 2).
 */
export const TAG = {
  /** Lists of all articles: home pages, /blogs pages, the breaking ticker, feeds. */
  list: 'list',
  /** The nav and footer: every page carries it. */
  nav: 'nav',
  carousel: 'carousel',
  downloads: 'downloads',
  topViewed: 'top-viewed',
  blog: (id: number) => `blog:${id}`,
  /** The pages listing one category's articles (/blogs?category=ID). */
  category: (id: number) => `category:${id}`,
  comments: (blogId: number) => `comments:${blogId}`,
} as const;
