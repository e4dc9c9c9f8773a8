/**
 * What the old site's HTML says in shapes this site's editor does not write, rewritten into the
 * ones it does, before the sanitizer (which would otherwise drop the tag and leave its text
 * loose): WordPress's and Ghost's `<figure>` cards lose the wrapper and their caption becomes a
 * paragraph of its own in italics; a code block's language, written as a `language-x` class on
 * `<pre>` or `<code>` (Ghost, Prism, highlight.js), becomes the editor's `data-language`; and a
 * subscript of digits and signs (CO<sub>2</sub>) becomes the Unicode subscript characters (CO₂),
 * since the editor has no subscript; a Ghost bookmark card (a link wrapped around its page's
 * title, description, icon and picture) becomes its titled link and its description quoted.
 */

const SUBSCRIPT: Record<string, string> = Object.fromEntries([...'0123456789+-=()'].map((c, i) => [c, '₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎'[i]!]));
const FIGURE_TAG = /<\/?figure\b[^>]*>/gi;
const FIGCAPTION = /<figcaption\b[^>]*>([\s\S]*?)<\/figcaption>/gi;
const CODE_BLOCK = /<pre\b([^>]*)>(\s*)<code\b([^>]*)>/gi;
const LANGUAGE_CLASS = /\bclass\s*=\s*["'][^"']*\b(?:language|lang)-([\w+#.-]{1,30})/i;
const SUB = /<sub\b[^>]*>([^<]*)<\/sub>/gi;
const BOOKMARK = /<a\b(?=[^>]*\bclass\s*=\s*["'][^"']*\bkg-bookmark-container\b)[^>]*>([\s\S]*?)<\/a>/gi;
const HREF = /\bhref\s*=\s*(["'])([^"']*)\1/i;
const bookmarkPart = (inner: string, part: string) =>
  new RegExp(`<div\\b[^>]*\\bkg-bookmark-${part}\\b[^>]*>([\\s\\S]*?)<\\/div>`, 'i').exec(inner)?.[1]?.trim() ?? '';

/** A bookmark card as the link and quote it shows; the icon and picture, copies of the other site's, are left there. */
export function bookmarkHtml(url: string, title: string, description: string): string {
  if (!url) return '';
  const link = `<p><a href="${url}">${title || url}</a></p>`;
  return description ? `${link}<blockquote><p>${description}</p></blockquote>` : link;
}

export function toEditorShapes(html: string): string {
  return html
    .replace(BOOKMARK, (whole, inner: string) => {
      const url = HREF.exec(whole)?.[2] ?? '';
      return bookmarkHtml(url, bookmarkPart(inner, 'title'), bookmarkPart(inner, 'description'));
    })
    .replace(FIGCAPTION, (_, caption: string) => (caption.trim() ? `<p><em>${caption.trim()}</em></p>` : ''))
    .replace(FIGURE_TAG, '')
    .replace(CODE_BLOCK, (whole, preAttributes: string, space: string, codeAttributes: string) => {
      if (/\bdata-language\s*=/i.test(preAttributes)) return whole;
      const language = (LANGUAGE_CLASS.exec(preAttributes) ?? LANGUAGE_CLASS.exec(codeAttributes))?.[1];
      return language ? `<pre data-language="${language.toLowerCase()}">${space}<code>` : whole;
    })
    .replace(SUB, (whole, text: string) =>
      [...text].every((c) => c in SUBSCRIPT) ? [...text].map((c) => SUBSCRIPT[c]).join('') : whole,
    );
}
