import sanitizeHtml from 'sanitize-html';
import { CALLOUT_KINDS } from '../../shared/study-blocks.ts';

/**
 * Article HTML is sanitized on write, whoever sends it (admins included): only what the editor
 * can produce survives. Links keep http, https, mailto and tel; any other scheme becomes a blank
 * address (docs/product.md#validation-rules). Colours survive as a whitelisted `color`/`background-color` style.
 */
const COLOR = /^(#[0-9a-f]{3,8}|rgba?\(\s*\d{1,3}%?\s*,\s*\d{1,3}%?\s*,\s*\d{1,3}%?\s*(,\s*(0|1|0?\.\d+))?\s*\)|[a-z]{3,20})$/i;
const SAFE_LINK = /^(https?:|mailto:|tel:)/i;
const ALIGN = /^(left|center|right)$/;
const LANGUAGE = /^[a-z0-9+#-]{1,24}$/i;
const FOOTNOTE_LABEL = /^[\w-]{1,32}$/;

function keepToken(tagName: string, attribs: sanitizeHtml.Attributes, name: string, pattern: RegExp): sanitizeHtml.Tag {
  const { [name]: value, ...rest } = attribs;
  return { tagName, attribs: value !== undefined && pattern.test(value) ? { ...rest, [name]: value } : rest };
}
const YOUTUBE_EMBED = /^https:\/\/www\.youtube(-nocookie)?\.com\/embed\/[A-Za-z0-9_-]{11}(\?[\w=&-]*)?$/;

const articleOptions: sanitizeHtml.IOptions = {
  allowedTags: [
    'p',
    'br',
    'h1',
    'h2',
    'h3',
    'h4',
    'strong',
    'b',
    'em',
    'i',
    'u',
    's',
    'del',
    'code',
    'pre',
    'blockquote',
    'ul',
    'ol',
    'li',
    'a',
    'img',
    'span',
    'hr',
    'table',
    'thead',
    'tbody',
    'tr',
    'th',
    'td',
    'iframe',
    // Study material (docs/study-content.md): math and callouts are divs and spans marked by a
    // data attribute, footnotes are sup references and dl definitions, as the editor writes them.
    'div',
    'sup',
    'dl',
    'dt',
    'dd',
  ],
  allowedAttributes: {
    a: ['href', 'title'],
    img: ['src', 'alt', 'title', 'width', 'height'],
    iframe: ['src', 'title', 'allowfullscreen'],
    th: ['colspan', 'rowspan', 'style'],
    td: ['colspan', 'rowspan', 'style'],
    ol: ['start'],
    tr: [{ name: 'data-is-header', values: ['', 'true'] }],
    li: [
      { name: 'data-item-type', values: ['task'] },
      { name: 'data-checked', values: ['true', 'false'] },
    ],
    span: ['style', { name: 'data-type', values: ['math_inline'] }],
    div: [
      { name: 'data-type', values: ['math_block'] },
      { name: 'data-callout', values: [...CALLOUT_KINDS] },
    ],
    pre: ['data-language'],
    sup: [{ name: 'data-type', values: ['footnote_reference'] }, 'data-label'],
    dl: [{ name: 'data-type', values: ['footnote_definition'] }, 'data-label'],
  },
  allowedStyles: {
    span: { color: [COLOR], 'background-color': [COLOR] },
    th: { 'text-align': [ALIGN] },
    td: { 'text-align': [ALIGN] },
  },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesByTag: { img: ['http', 'https'] },
  allowProtocolRelative: false,
  allowedIframeHostnames: ['www.youtube.com', 'www.youtube-nocookie.com'],
  disallowedTagsMode: 'discard',
  transformTags: {
    a: (tagName, attribs) => {
      const href = (attribs.href ?? '').trim();
      const kept = href === '' || SAFE_LINK.test(href) || href.startsWith('/') || href.startsWith('#') ? href : '';
      const safeHref = href.startsWith('//') ? '' : kept;
      // A link within the site (another article, a heading of this one) is the publisher's own:
      // followed by search engines and opened in the same tab. Any other opens apart, unendorsed.
      if (safeHref.startsWith('/') || safeHref.startsWith('#')) {
        const { rel: _rel, target: _target, ...own } = attribs;
        return { tagName, attribs: { ...own, href: safeHref } };
      }
      return { tagName, attribs: { ...attribs, href: safeHref, rel: 'noopener noreferrer nofollow ugc', target: '_blank' } };
    },
    iframe: (tagName, attribs): sanitizeHtml.Tag => {
      const src = attribs.src ?? '';
      if (!YOUTUBE_EMBED.test(src)) return { tagName: 'p', attribs: {} };
      return { tagName, attribs: { src, title: attribs.title ?? 'Embedded video', allowfullscreen: '', loading: 'lazy' } };
    },
    img: (tagName, attribs) => ({ tagName, attribs: { ...attribs, loading: 'lazy', decoding: 'async' } }),
    // Free-text data attributes keep a short plain token only: they end up in ids and classes.
    pre: (tagName, attribs) => keepToken(tagName, attribs, 'data-language', LANGUAGE),
    sup: (tagName, attribs) => keepToken(tagName, attribs, 'data-label', FOOTNOTE_LABEL),
    dl: (tagName, attribs) => keepToken(tagName, attribs, 'data-label', FOOTNOTE_LABEL),
  },
  exclusiveFilter: (frame) => frame.tag === 'iframe' && !frame.attribs.src,
};
articleOptions.allowedAttributes = {
  ...(articleOptions.allowedAttributes as Record<string, string[]>),
  a: ['href', 'title', 'rel', 'target'],
  img: ['src', 'alt', 'title', 'width', 'height', 'loading', 'decoding'],
  iframe: ['src', 'title', 'allowfullscreen', 'loading'],
};

export function sanitizeArticleHtml(html: string): string {
  return sanitizeHtml(html, articleOptions);
}

// Marks where a block ended, so the plain text can say so (a private-use character, removed from
// the input first, so no article text can forge one).
const MARK = '\uE000';
const HEADING_END = `${MARK}h`;
const BLOCK_END = `${MARK}b`;
const ENDS_SENTENCE = /[.!?:;…]$/;

function markBlockEnds(html: string): string {
  return html
    .replaceAll(MARK, '')
    .replace(/<\/h[1-6]\s*>/gi, `$&${HEADING_END}`)
    .replace(/<\/(p|li|blockquote|pre|tr|div)\s*>|<hr\s*\/?>/gi, `$&${BLOCK_END}`)
    .replace(/<\/(td|th)\s*>|<br\s*\/?>/gi, '$& ');
}

function decodeEntities(text: string): string {
  return text
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

/**
 * Plain text of an HTML fragment, for the search index, card excerpts and descriptions. Blocks
 * stay apart as a reader would hear them: a heading that does not end a sentence is followed by
 * a colon, any other block by a full stop ("Key ideas: Start from...", not "Key ideas Start from").
 */
export function htmlToText(html: string): string {
  const stripped = decodeEntities(sanitizeHtml(markBlockEnds(html), { allowedTags: [], allowedAttributes: {} }));
  let text = '';
  let ending: string | null = null;
  for (const part of stripped.split(new RegExp(`(${MARK}[hb])`))) {
    if (part === HEADING_END || part === BLOCK_END) {
      // Nested blocks (a paragraph inside a list item) end together: the innermost one decides.
      ending ??= part === HEADING_END ? ':' : '.';
      continue;
    }
    const piece = part.replace(/\s+/g, ' ').trim();
    if (!piece) continue;
    if (text) text += `${ending && !ENDS_SENTENCE.test(text) ? ending : ''} `;
    text += piece;
    ending = null;
  }
  return text;
}
