/**
 * A page's header and footer (the "chrome": the nav, the category lists, the footer's links) swapped
 * for newer ones without rendering the page. A category renamed or reordered changes every page's
 * nav and footer and nothing else on most of them: a page that only `nav` left stale keeps its
 * text and gets the header and footer of a page rendered since, with the same current entry (the
 * pages naming it elsewhere carry its `category-name:ID` and get the new name written in too:
 * category-name-patch.ts).
 *
 * The layout marks both parts (`chromeOpen`/`chromeClose`); the mark names the variant the header
 * depends on besides the data (which nav entry is the current page). A patch is only made when the
 * document has each mark exactly once (an article's text cannot fake one) and the new parts run
 * the same inline code as the old (the page's Content-Security-Policy names its inline scripts'
 * hashes); otherwise the page is rendered.
 */

export type ChromePart = 'header' | 'footer';

const PARTS: readonly ChromePart[] = ['header', 'footer'];

/** The variant of a page's chrome: which top-level entry and which category the nav marks as current. */
export function chromeVariant(current: string | undefined, categoryId: number | null | undefined): string {
  return `${current ?? '-'}.${categoryId ?? '-'}`;
}

export const chromeOpen = (part: ChromePart, variant: string) => `<!--chrome:${part}:${variant}-->`;
export const chromeClose = (part: ChromePart) => `<!--/chrome:${part}-->`;

const OPEN_PREFIX = (part: ChromePart) => `<!--chrome:${part}:`;

interface Region {
  /** `part:variant`: the same name on two pages means the same chrome for the same data. */
  name: string;
  /** From the end of the opening mark to the start of the closing one. */
  start: number;
  end: number;
}

/** Where `needle` occurs, when it occurs exactly once. */
function onlyIndexOf(html: string, needle: string): number {
  const at = html.indexOf(needle);
  return at >= 0 && html.indexOf(needle, at + needle.length) < 0 ? at : -1;
}

/** The document's marked parts, or null unless each is marked exactly once, in order. */
function regionsOf(html: string): Region[] | null {
  const regions: Region[] = [];
  let after = 0;
  for (const part of PARTS) {
    const prefix = OPEN_PREFIX(part);
    const open = onlyIndexOf(html, prefix);
    if (open < after) return null;
    const variantEnd = html.indexOf('-->', open + prefix.length);
    const close = onlyIndexOf(html, chromeClose(part));
    if (variantEnd < 0 || close < variantEnd) return null;
    regions.push({ name: `${part}:${html.slice(open + prefix.length, variantEnd)}`, start: variantEnd + 3, end: close });
    after = close;
  }
  return regions;
}

/** The marked parts of a freshly rendered document, by name; null when it has none (not a page of the site's layout). */
export function harvestChrome(html: string): Map<string, string> | null {
  const regions = regionsOf(html);
  return regions && new Map(regions.map((region) => [region.name, html.slice(region.start, region.end)]));
}

const INLINE_CODE = /<(script|style)\b[^>]*>[\s\S]*?<\/\1>/gi;

/** The inline scripts and style elements of a fragment, in order: what the page's policy hashes. */
function inlineCode(fragment: string): string {
  return fragment.includes('<script') || fragment.includes('<style') ? (fragment.match(INLINE_CODE) ?? []).join('\n') : '';
}

/**
 * The document with each marked part replaced by the fragment of the same name, or null when a
 * part is missing from `fragments`, the marks are not each there once, or a new part's inline
 * code differs from the old one's.
 */
export function patchChrome(html: string, fragments: ReadonlyMap<string, string>): string | null {
  const regions = regionsOf(html);
  if (!regions) return null;
  let patched = '';
  let from = 0;
  for (const region of regions) {
    const fragment = fragments.get(region.name);
    if (fragment === undefined) return null;
    if (inlineCode(fragment) !== inlineCode(html.slice(region.start, region.end))) return null;
    patched += html.slice(from, region.start) + fragment;
    from = region.end;
  }
  return patched + html.slice(from);
}
