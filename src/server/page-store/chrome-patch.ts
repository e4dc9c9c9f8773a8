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
const VARIANT_END = '-->';

interface Region {
  /** `part:variant`: the same name on two pages means the same chrome for the same data. */
  name: string;
  /** From the end of the opening mark to the start of the closing one. */
  start: number;
  end: number;
}

/** Where `needle` (ASCII) occurs, when it occurs exactly once. */
export function onlyIndexOf(html: Buffer, needle: string): number {
  const at = html.indexOf(needle, 0, 'latin1');
  return at >= 0 && html.indexOf(needle, at + needle.length, 'latin1') < 0 ? at : -1;
}

/** The document's marked parts, or null unless each is marked exactly once, in order. */
function regionsOf(html: Buffer): Region[] | null {
  const regions: Region[] = [];
  let after = 0;
  for (const part of PARTS) {
    const prefix = OPEN_PREFIX(part);
    const open = onlyIndexOf(html, prefix);
    if (open < after) return null;
    const variantEnd = html.indexOf(VARIANT_END, open + prefix.length, 'latin1');
    const close = onlyIndexOf(html, chromeClose(part));
    if (variantEnd < 0 || close < variantEnd) return null;
    const variant = html.toString('latin1', open + prefix.length, variantEnd);
    regions.push({ name: `${part}:${variant}`, start: variantEnd + VARIANT_END.length, end: close });
    after = close;
  }
  return regions;
}

/**
 * The marked parts of a freshly rendered document (its UTF-8 bytes), by name, each a copy (not a
 * view keeping the whole page); null when it has none (not a page of the site's layout).
 */
export function harvestChrome(html: Buffer): Map<string, Buffer> | null {
  const regions = regionsOf(html);
  return regions && new Map(regions.map((region) => [region.name, Buffer.from(html.subarray(region.start, region.end))]));
}

const INLINE_CODE = /<(script|style)\b[^>]*>[\s\S]*?<\/\1>/gi;

/** The inline scripts and style elements of a fragment, in order: what the page's policy hashes. */
export function inlineCode(fragment: Buffer): string {
  if (fragment.indexOf('<script', 0, 'latin1') < 0 && fragment.indexOf('<style', 0, 'latin1') < 0) return '';
  // Byte for byte: the same bytes give the same string, whatever they encode.
  return (fragment.toString('latin1').match(INLINE_CODE) ?? []).join('\n');
}

/**
 * The document (its UTF-8 bytes) with each marked part replaced by the fragment of the same name,
 * or null when a part is missing from `fragments`, the marks are not each there once, or a new
 * part's inline code differs from the old one's. Worked on bytes, not text: the page goes from
 * brotli to brotli, and a page with one character outside Latin-1 made every string of it two
 * bytes a character, decoded, searched and encoded again (7% of a rename's worker CPU).
 */
export function patchChrome(html: Buffer, fragments: ReadonlyMap<string, Buffer>): Buffer | null {
  const regions = regionsOf(html);
  if (!regions) return null;
  const pieces: Buffer[] = [];
  let from = 0;
  for (const region of regions) {
    const fragment = fragments.get(region.name);
    if (fragment === undefined) return null;
    if (inlineCode(fragment) !== inlineCode(html.subarray(region.start, region.end))) return null;
    pieces.push(html.subarray(from, region.start), fragment);
    from = region.end;
  }
  pieces.push(html.subarray(from));
  return Buffer.concat(pieces);
}
