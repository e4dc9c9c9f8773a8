import { inlineCode, onlyIndexOf } from './chrome-patch.ts';

/**
 * The blocks every home page shows alike, the top-viewed list and the ticker of the newest
 * articles, swapped for newer ones without rendering the page. The lead's check refreshes the list
 * about once a minute on a site with readers (each view moves its counts), and an edit of an
 * article either shows (its title, its date) changes them; every home page shows both: 1,667
 * pages at 10,000 articles, each a render of about 2 ms before its brotli copy. A page only such
 * a change left stale keeps its text and gets the blocks of a home page rendered since.
 *
 * The page marks each block (`blockOpen`/`blockClose`), and the opening mark names the articles
 * it shows: a patched page carries their `in-block:ID` tags, so an edit of an article that joined
 * the list stales it. A patch is only made when the document has each mark exactly once (an
 * article's text cannot fake one: the page escapes it) and the new block runs the same inline
 * code as the old (the page's Content-Security-Policy names its inline scripts' hashes).
 */

export type BlockName = 'top-viewed' | 'ticker';

/** Every block a page may show, in the order they are patched. */
export const BLOCK_NAMES: readonly BlockName[] = ['ticker', 'top-viewed'];

const OPEN_PREFIX = (name: BlockName) => `<!--block:${name}:`;
const MARK_END = '-->';

export const blockOpen = (name: BlockName, ids: readonly number[]) => `${OPEN_PREFIX(name)}${ids.join('.')}${MARK_END}`;
export const blockClose = (name: BlockName) => `<!--/block:${name}-->`;

/** A block as rendered: its marks and what is between them, and the articles it shows. */
export interface Block {
  html: Buffer;
  ids: number[];
}

interface Region {
  /** From the start of the opening mark to the end of the closing one. */
  start: number;
  end: number;
  ids: number[];
}

/** Whether the document shows the block (its opening mark is there). */
export function showsBlock(html: Buffer, name: BlockName): boolean {
  return html.includes(OPEN_PREFIX(name), 0, 'latin1');
}

/** Where the document's block is, or null unless each of its marks is there exactly once, in order. */
function regionOf(html: Buffer, name: BlockName): Region | null {
  const prefix = OPEN_PREFIX(name);
  const open = onlyIndexOf(html, prefix);
  if (open < 0) return null;
  const markEnd = html.indexOf(MARK_END, open + prefix.length, 'latin1');
  const closeMark = blockClose(name);
  const close = onlyIndexOf(html, closeMark);
  if (markEnd < 0 || close < markEnd) return null;
  const listed = html.toString('latin1', open + prefix.length, markEnd);
  const ids = listed === '' ? [] : listed.split('.').map(Number);
  if (!ids.every((id) => Number.isSafeInteger(id) && id > 0)) return null;
  return { start: open, end: close + closeMark.length, ids };
}

/** The block of a freshly rendered document (its UTF-8 bytes), a copy; null when it has none. */
export function harvestBlock(html: Buffer, name: BlockName): Block | null {
  const region = regionOf(html, name);
  return region && { html: Buffer.from(html.subarray(region.start, region.end)), ids: region.ids };
}

/**
 * The document (its UTF-8 bytes) with its block replaced by `block`, or null when the marks are
 * not each there once or the new block's inline code differs from the old one's.
 */
export function patchBlock(html: Buffer, name: BlockName, block: Block): Buffer | null {
  const region = regionOf(html, name);
  if (!region) return null;
  if (inlineCode(block.html) !== inlineCode(html.subarray(region.start, region.end))) return null;
  return Buffer.concat([html.subarray(0, region.start), block.html, html.subarray(region.end)]);
}
