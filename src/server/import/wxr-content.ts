/**
 * WordPress post content as a reader of the old site saw it, before the sanitizer: block
 * comments (`<!-- wp:paragraph -->`) removed, and classic-editor text, which WordPress stores
 * without paragraphs and turns into them when it shows the post (wpautop), given its paragraphs
 * and line breaks the same way. Shortcodes stay as they are: the sanitizer keeps them as text.
 */

import { Parser } from 'htmlparser2';

const BLOCK_COMMENT = /<!--\s*\/?wp:[\s\S]*?-->/g;
const BLOCK_TAGS =
  'address|article|aside|blockquote|dd|details|div|dl|dt|fieldset|figcaption|figure|footer|form|h[1-6]|header|hr|li|main|nav|ol|p|pre|section|summary|table|tbody|td|tfoot|th|thead|tr|ul|style|script|iframe|object|embed|video|audio|caption|math|svg';
const STARTS_BLOCK = new RegExp(`^\\s*</?(?:${BLOCK_TAGS})[\\s/>]`, 'i');
const ENDS_BLOCK = new RegExp(`</?(?:${BLOCK_TAGS})[^>]*>\\s*$`, 'i');
const PRESERVED = /<(pre|script|style|textarea)[\s>][\s\S]*?<\/\1>/gi;

export function hasBlocks(content: string): boolean {
  return /<!--\s*wp:/.test(content);
}

/** Paragraphs from blank lines and `<br>` from single newlines, leaving block elements and `<pre>` alone. */
export function autop(text: string): string {
  const kept: string[] = [];
  const protectedText = text
    .replaceAll('\uE001', '')
    .replace(/\r\n?/g, '\n')
    .replace(PRESERVED, (match) => {
      kept.push(match);
      return `\uE001${kept.length - 1}\uE001`;
    });
  const restore = (s: string) => s.replace(/\uE001(\d+)\uE001/g, (_, i: string) => kept[Number(i)]!);
  const paragraphs = protectedText
    .split(/\n\s*\n/)
    .map((chunk) => chunk.trim())
    .filter((chunk) => chunk !== '');
  return paragraphs
    .map((chunk) => {
      if (/^\uE001\d+\uE001$/.test(chunk) || (STARTS_BLOCK.test(chunk) && ENDS_BLOCK.test(chunk))) return restore(chunk);
      const lines = chunk.replace(/\n/g, (nl, offset: number, whole: string) => {
        const before = whole.slice(0, offset);
        const after = whole.slice(offset + 1);
        return ENDS_BLOCK.test(before) || STARTS_BLOCK.test(after) ? nl : '<br />\n';
      });
      return STARTS_BLOCK.test(chunk) ? restore(lines) : `<p>${restore(lines)}</p>`;
    })
    .join('\n');
}

export function wordpressHtml(content: string): string {
  if (hasBlocks(content)) return content.replace(BLOCK_COMMENT, '').trim();
  return autop(content);
}

/**
 * A WordPress title as its readers saw it. WordPress keeps titles as HTML and prints them
 * unescaped, so "Media &amp;amp; Text" read "Media & Text" and "Title <em>With</em> Markup" read
 * "Title With Markup"; titles here are plain text.
 */
export function wordpressTitle(html: string): string {
  let text = '';
  const parser = new Parser({ ontext: (part) => (text += part) }, { decodeEntities: true });
  parser.end(html);
  return text.replace(/\s+/g, ' ').trim();
}
