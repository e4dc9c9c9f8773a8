/**
 * A renamed category's new name written into a stored page in place of the old one, instead of
 * rendering the page: the pages naming a category beside its articles (its articles' pages, the
 * cards of lists, its own list) were a seventh of a rename's refresh at 10,000 articles and half
 * of its render work. Used with the header and footer patch (chrome-patch.ts), for a page that only
 * the nav and `category-name:ID` left stale: everything else it shows is current.
 *
 * The name is replaced only where the site's components write it, each spelled as Astro escapes
 * it there, never in text an author wrote (an article's title or text may contain the name). The
 * places, and the components that write them:
 * - ArticleCard, ArticleView: `<p class="category-label" dir="auto">NAME</p>`;
 * - SaveButton: `data-category="NAME" aria-pressed=`;
 * - ArticleView: the structured data's `"articleSection":NAME` and the description an article
 *   without a summary gets, `TITLE: a NAME article.` (three meta tags);
 * - ArticlePager: `aria-label="More in NAME"`, `Older in NAME`, `Newer in NAME`;
 * - blogs.astro (a category's list): the heading, the title (`NAME | SITE`, `NAME (page N of M)`
 *   in the title element and the two social titles) and `Study articles in NAME.`.
 * tests/integration/rename-patch.test.ts compares every page of a refreshed site with the same
 * site rendered from scratch: a component that writes the name somewhere else fails it.
 */

/** A category the page names under the name it had (`from`), and the name it has now. */
export interface CategoryRename {
  id: number;
  from: string;
  to: string;
}

/** The name articles without a category show: a category may be called that too, so its old name cannot be told apart. */
export const UNCATEGORIZED_LABEL = 'General';

// Astro's escaping: text (escapeHTML) and attribute values (toAttributeString).
const TEXT_ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', "'": '&#39;', '"': '&quot;' };
const escapeText = (value: string) => value.replace(/[&<>'"]/g, (char) => TEXT_ENTITIES[char]!);
const escapeAttribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
// The structured data: JSON with `<` escaped (PublicLayout).
const escapeJson = (value: string) => JSON.stringify(value).replace(/</g, '\\u003c');

type Escape = (value: string) => string;
/** Where a component writes a category's name: what comes before it and after it, and how it is escaped there. */
type Place = readonly [before: string, after: string, escape: Escape];

/**
 * Places on any page. Each begins or ends with markup an author's text cannot make: the article
 * sanitizer (content/sanitize.ts) keeps no `class`, `dir`, `aria-label` or `data-category`, and
 * the structured data escapes every quote of a value.
 */
const PLACES: readonly Place[] = [
  ['<p class="category-label" dir="auto">', '</p>', escapeText],
  [' data-category="', '" aria-pressed=', escapeAttribute],
  ['"articleSection":', ',', escapeJson],
  [' aria-label="More in ', '"', escapeAttribute],
  ['<span class="pager-arrow" aria-hidden="true">←</span>Older in ', '</span>', escapeText],
  ['<span class="pager-label">Newer in ', '<span class="pager-arrow"', escapeText],
];

/**
 * Places on the category's own list only: there the heading and the titles are its name, where on
 * another page (an article, the list of all articles) the same text is a title an author wrote or
 * the site's own heading.
 */
const LIST_PLACES: readonly Place[] = [
  ['<h1 class="page-heading" dir="auto">', '</h1>', escapeText],
  ['<title>', ' | ', escapeText],
  ['<title>', ' (page ', escapeText],
  [':title" content="', '"', escapeAttribute],
  [':title" content="', ' (page ', escapeAttribute],
  [' content="Study articles in ', '."', escapeAttribute],
];

const OG_TITLE = '<meta property="og:title" content="';

/**
 * The description of an article without a summary, `TITLE: a NAME article.`, with the article's
 * title as the page's social title has it (a summary that merely ends the same way stays as written).
 */
function descriptionPlace(html: Buffer): Place | null {
  const at = html.indexOf(OG_TITLE, 0, 'latin1');
  const end = at < 0 ? -1 : html.indexOf('"', at + OG_TITLE.length, 'latin1');
  return end < 0 ? null : [`content="${html.toString('utf8', at + OG_TITLE.length, end)}: a `, ' article."', escapeAttribute];
}

/** `html` with every `old` replaced by `now`, and how many there were. */
function replaceAll(html: Buffer, old: Buffer, now: Buffer): { html: Buffer; count: number } {
  let at = html.indexOf(old);
  if (at < 0) return { html, count: 0 };
  const pieces: Buffer[] = [];
  let from = 0;
  let count = 0;
  for (; at >= 0; count++) {
    pieces.push(html.subarray(from, at), now);
    from = at + old.length;
    at = html.indexOf(old, from);
  }
  pieces.push(html.subarray(from));
  return { html: Buffer.concat(pieces), count };
}

/**
 * The page (its UTF-8 bytes, as chrome-patch.ts patches them) with each category's old name
 * replaced by its new one where the components write it, or null when it cannot be done safely
 * (the page is rendered instead): an old name is the uncategorized articles' label, a new name is
 * another's old one (one replacement would undo another), or an old name is not found where it
 * would be written (the page was rendered after the rename committed, or a component changed).
 * `listOf`: the category whose list the page is, if any.
 */
export function renameCategoriesIn(html: Buffer, renames: readonly CategoryRename[], listOf: number | null): Buffer | null {
  const olds = new Set(renames.map((rename) => rename.from));
  if (olds.has(UNCATEGORIZED_LABEL) || renames.some((rename) => rename.from !== rename.to && olds.has(rename.to))) return null;
  const description = descriptionPlace(html);
  let patched = html;
  for (const { id, from, to } of renames) {
    const places = [...PLACES, ...(description ? [description] : []), ...(id === listOf ? LIST_PLACES : [])];
    let found = 0;
    for (const [before, after, escape] of places) {
      const replaced = replaceAll(patched, Buffer.from(before + escape(from) + after), Buffer.from(before + escape(to) + after));
      patched = replaced.html;
      found += replaced.count;
    }
    if (found === 0) return null;
  }
  return patched;
}
