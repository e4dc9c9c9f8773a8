/**
 * Tags name the data a page shows. A page declares its tags when it renders; a change names the
 * tags it touched, and every stored page carrying one of them goes stale (docs/product.md#speed-and-freshness).
 * Inside the app tags are typed values; they become strings only at the edge, for Astro's
 * `Cache-Tag` header and the page store's tag versions (tagName), and are read back from a
 * string in one place only (readTagName, for Astro's `cache.invalidate`).
 */
export type PageTag =
  /**
   * Membership and order of the lists of all articles (home pages, /blogs pages, the ticker, feeds,
   * the sitemap): bumped by a create, delete or publish, never by an edit of what an article shows.
   * A list page carries it beside the `blog:ID` of every article it shows.
   */
  | { kind: 'list' }
  /** Every article's last-modified date: only the sitemap shows them, and every article write bumps it. */
  | { kind: 'updates' }
  /** The nav and footer: every HTML page carries it. */
  | { kind: 'nav' }
  /**
   * The site settings (title, logo, icons, colours, social links, footer text): every stored
   * page carries it, HTML or not (the feed and the manifest show the title), so bumping it
   * refreshes the whole site. Also what a site-wide change (the demo removal) bumps.
   */
  | { kind: 'settings' }
  /** The About and Contact texts the admin writes. */
  | { kind: 'info-pages' }
  | { kind: 'carousel' }
  | { kind: 'downloads' }
  | { kind: 'top-viewed' }
  | { kind: 'blog'; id: number }
  /** Membership and order of one category's list (/blogs?category=ID), beside its shown articles' tags. */
  | { kind: 'category'; id: number }
  /**
   * One category's name as pages show it beside its articles (their pages, the cards of lists, the
   * feed): bumped by a rename or a delete, never by an article joining it. The nav shows every
   * name through `nav`.
   */
  | { kind: 'category-name'; id: number }
  | { kind: 'comments'; id: number }
  /**
   * Which articles an article page links to as Older and Newer: bumped when an article joins the
   * lists next to it. The linked articles' titles come through their `link:ID`.
   */
  | { kind: 'neighbours'; id: number }
  /**
   * An article as another article's Older or Newer link names it: its title and its place (public
   * or not, its category, its date). An edit of anything else it shows (its text, picture, files)
   * leaves this tag alone, so its neighbours' pages are not re-rendered for it.
   */
  | { kind: 'link'; id: number }
  /**
   * An article as the blocks every home page shows name it (the ticker, the top-viewed list): its
   * title and its date, bumped with its `link:ID`. A home page carries it, not the `blog:ID`, for an
   * article shown only there, so an edit of it is patched into the pages (block-patch.ts) instead
   * of rendering every home page. Taken down with the article's `blog:ID`.
   */
  | { kind: 'in-block'; id: number };

export const tag = {
  list: { kind: 'list' },
  updates: { kind: 'updates' },
  nav: { kind: 'nav' },
  settings: { kind: 'settings' },
  infoPages: { kind: 'info-pages' },
  carousel: { kind: 'carousel' },
  downloads: { kind: 'downloads' },
  topViewed: { kind: 'top-viewed' },
  blog: (id: number): PageTag => ({ kind: 'blog', id }),
  category: (id: number): PageTag => ({ kind: 'category', id }),
  categoryName: (id: number): PageTag => ({ kind: 'category-name', id }),
  /** An article's comments, by the article's id. */
  comments: (blogId: number): PageTag => ({ kind: 'comments', id: blogId }),
  /** The Older and Newer links of an article's page, by the article's id. */
  neighbours: (blogId: number): PageTag => ({ kind: 'neighbours', id: blogId }),
  /** An article's title and place, as other articles' Older and Newer links show them. */
  link: (blogId: number): PageTag => ({ kind: 'link', id: blogId }),
  /** An article's title and date, as the home pages' ticker and top-viewed list show them. */
  inBlock: (blogId: number): PageTag => ({ kind: 'in-block', id: blogId }),
} as const satisfies Record<string, PageTag | ((id: number) => PageTag)>;

/** The tag as the page store and Astro's `Cache-Tag` header spell it: `list`, `blog:12`. */
export function tagName(pageTag: PageTag): string {
  return 'id' in pageTag ? `${pageTag.kind}:${pageTag.id}` : pageTag.kind;
}

const WITH_ID = new Set<string>(['blog', 'category', 'category-name', 'comments', 'neighbours', 'link', 'in-block']);
const WITHOUT_ID = new Set<string>(['list', 'updates', 'nav', 'settings', 'info-pages', 'carousel', 'downloads', 'top-viewed']);

/** A tag spelled by tagName(), or null for anything else. */
export function readTagName(name: string): PageTag | null {
  const match = /^([a-z-]+)(?::([1-9]\d{0,14}))?$/.exec(name.trim());
  if (!match) return null;
  const [, kind, id] = match;
  if (id === undefined) return WITHOUT_ID.has(kind!) ? ({ kind } as PageTag) : null;
  return WITH_ID.has(kind!) ? ({ kind, id: Number(id) } as PageTag) : null;
}

/** The tags without repeats (a change may name one tag twice). */
export function uniqueTags(tags: readonly PageTag[]): PageTag[] {
  const byName = new Map<string, PageTag>();
  for (const pageTag of tags) byName.set(tagName(pageTag), pageTag);
  return [...byName.values()];
}
