/**
 * How text is prepared for the search indexes, on both sides: what is indexed and what is looked
 * up go through the same folding, so they meet. Pure and synchronous.
 */

/** Scripts written without spaces between words: only a substring (trigram) index finds their words. */
export const UNSPACED_SCRIPT =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\p{Script=Tibetan}]+/gu;

// Arabic vowel marks and the tatweel stretch: readers type words without them.
const ARABIC_MARKS = /[\u0610-\u061a\u064b-\u065f\u0670\u06d6-\u06dc\u06df-\u06e8\u06ea-\u06ed\u0640]/g;
// The snippet markers (see search-snippet.ts) must never occur in indexed text.
const MARKER_CHARS = new RegExp(`[${String.fromCharCode(2)}${String.fromCharCode(3)}]`, 'g');

/** Text as the word index stores it: NFKC, without Arabic vowel marks or snippet markers. */
export function foldIndexText(text: string): string {
  return text.normalize('NFKC').replace(ARABIC_MARKS, '').replace(MARKER_CHARS, ' ');
}

/** The runs of unspaced scripts in the text, for the trigram index (empty on a Latin-only text). */
export function unspacedRuns(text: string): string {
  return (text.match(UNSPACED_SCRIPT) ?? []).join(' ');
}

/**
 * The path under UPLOADS_DIR of a PDF the site holds (`/uploads/pdfs/x.pdf`, or a demo file),
 * else null: external links are never fetched.
 */
export function uploadedPdfPath(link: string | null | undefined): string | null {
  if (!link) return null;
  const match = /^\/uploads\/((?:pdfs|demo)\/[A-Za-z0-9_-][A-Za-z0-9._-]*\.pdf)$/i.exec(link);
  return match ? match[1]! : null;
}
