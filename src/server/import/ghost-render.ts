import { markdownHtml } from './markdown-html.ts';
import { bookmarkHtml } from './editor-shapes.ts';

/**
 * Ghost's editor documents as HTML, for an export whose posts have no `html` beside them:
 * mobiledoc (Ghost 1 to 4) and lexical (Ghost 5). The text and its formatting, headings, lists,
 * quotes, links, images, code, Markdown and HTML cards come through; a card with no meaning here
 * (a signup form, a product, a paywall marker) is left out and named in `notes`. The result goes
 * through the editor's sanitizer like every import, so nothing here needs to be trusted.
 */

type Row = Record<string, unknown>;
const str = (value: unknown) => (typeof value === 'string' ? value : '');
const arr = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const obj = (value: unknown): Row => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Row) : {});

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function figure(inner: string, caption: string): string {
  return caption ? `<figure>${inner}<figcaption>${caption}</figcaption></figure>` : `<figure>${inner}</figure>`;
}

/** A card both editors share, by name and payload; null when it has no meaning here. */
function renderCard(name: string, payload: Row): string | null {
  switch (name) {
    case 'markdown':
    case 'card-markdown':
      return markdownHtml(str(payload.markdown));
    case 'html':
      return str(payload.html);
    case 'image': {
      const src = str(payload.src);
      if (!src) return '';
      const alt = escapeHtml(str(payload.alt));
      const img = `<img src="${escapeHtml(src)}" alt="${alt}">`;
      // Ghost 4 lets an image link somewhere (`href`); its html wraps the image in that link.
      const href = str(payload.href);
      return figure(href ? `<a href="${escapeHtml(href)}">${img}</a>` : img, str(payload.caption));
    }
    case 'gallery':
      return figure(
        arr(payload.images)
          .map((image) => `<img src="${escapeHtml(str(obj(image).src))}" alt="${escapeHtml(str(obj(image).alt))}">`)
          .join(''),
        str(payload.caption),
      );
    case 'hr':
    case 'horizontalrule':
      return '<hr>';
    case 'code':
    case 'codeblock': {
      const language = str(payload.language);
      const code = `<pre><code${language ? ` class="language-${escapeHtml(language)}"` : ''}>${escapeHtml(str(payload.code))}</code></pre>`;
      return str(payload.caption) ? figure(code, str(payload.caption)) : code;
    }
    case 'embed':
      return figure(str(payload.html), str(payload.caption));
    case 'bookmark': {
      const metadata = obj(payload.metadata);
      return bookmarkHtml(escapeHtml(str(payload.url)), escapeHtml(str(metadata.title)), escapeHtml(str(metadata.description)));
    }
    case 'callout':
      return `<blockquote>${str(payload.calloutEmoji)} ${str(payload.calloutText)}</blockquote>`;
    case 'button':
      return str(payload.buttonUrl)
        ? `<p><a href="${escapeHtml(str(payload.buttonUrl))}">${escapeHtml(str(payload.buttonText))}</a></p>`
        : '';
    case 'toggle':
      return `<h4>${str(payload.heading)}</h4>${str(payload.content)}`;
    case 'video':
    case 'audio':
    case 'file': {
      const src = str(payload.src);
      const label = str(payload.fileName) || str(payload.title) || src;
      return src ? `<p><a href="${escapeHtml(src)}">${escapeHtml(label)}</a></p>` : '';
    }
    default:
      return null;
  }
}

// --- mobiledoc: sections of markers; a marker opens markups, writes its text, closes some. ---

function renderMarkers(markers: unknown[], markups: unknown[], atoms: unknown[]): string {
  let html = '';
  const open: string[] = [];
  for (const raw of markers) {
    const [type, opens, closes, value] = arr(raw) as [number, number[], number, unknown];
    for (const index of arr(opens)) {
      const [tag, attributes] = arr(markups[index as number]) as [string, string[]];
      const name = /^[a-z][a-z0-9]*$/i.test(str(tag)) ? str(tag).toLowerCase() : 'span';
      let attrs = '';
      const list = arr(attributes);
      for (let i = 0; i + 1 < list.length; i += 2) attrs += ` ${escapeHtml(str(list[i]))}="${escapeHtml(str(list[i + 1]))}"`;
      html += `<${name}${attrs}>`;
      open.push(name);
    }
    if (type === 1) {
      const atom = arr(atoms[value as number]);
      html += atom[0] === 'soft-return' ? '<br>' : escapeHtml(str(atom[1]));
    } else html += escapeHtml(str(value));
    for (let i = 0; i < (Number(closes) || 0) && open.length; i++) html += `</${open.pop()}>`;
  }
  while (open.length) html += `</${open.pop()}>`;
  return html;
}

export function renderMobiledoc(source: unknown, notes: string[]): string {
  const doc = obj(typeof source === 'string' ? JSON.parse(source) : source);
  const markups = arr(doc.markups);
  const atoms = arr(doc.atoms);
  const cards = arr(doc.cards);
  const parts: string[] = [];
  for (const raw of arr(doc.sections)) {
    const section = arr(raw);
    switch (section[0]) {
      case 1: {
        // An empty paragraph (Ghost's editor leaves one after a card at the end) shows nothing in Ghost.
        if (arr(section[2]).length === 0) break;
        const tag = str(section[1]).toLowerCase();
        const name = /^(p|h[1-6]|blockquote|aside|pull-quote)$/.test(tag)
          ? tag === 'pull-quote' || tag === 'aside'
            ? 'blockquote'
            : tag
          : 'p';
        parts.push(`<${name}>${renderMarkers(arr(section[2]), markups, atoms)}</${name}>`);
        break;
      }
      case 2:
        parts.push(`<img src="${escapeHtml(str(section[1]))}" alt="">`);
        break;
      case 3: {
        const tag = section[1] === 'ol' ? 'ol' : 'ul';
        const items = arr(section[2]).map((item) => `<li>${renderMarkers(arr(item), markups, atoms)}</li>`);
        parts.push(`<${tag}>${items.join('')}</${tag}>`);
        break;
      }
      case 10: {
        const [name, payload] = arr(cards[section[1] as number]) as [string, unknown];
        const html = renderCard(str(name), obj(payload));
        if (html === null) notes.push(`a Ghost "${str(name)}" card was left out`);
        else parts.push(html);
        break;
      }
    }
  }
  return parts.join('\n');
}

// --- lexical: a tree of nodes; text carries its formatting as bits. ---

const FORMATS: Array<[number, string]> = [
  [16, 'code'],
  [1, 'strong'],
  [2, 'em'],
  [8, 'u'],
  [4, 's'],
  [32, 'sub'],
  [64, 'sup'],
];

function renderLexicalNodes(nodes: unknown[], notes: string[]): string {
  return nodes.map((node) => renderLexicalNode(obj(node), notes)).join('');
}

function renderLexicalNode(node: Row, notes: string[]): string {
  const children = () => renderLexicalNodes(arr(node.children), notes);
  switch (str(node.type)) {
    case 'text':
    case 'extended-text': {
      let html = escapeHtml(str(node.text));
      const format = Number(node.format) || 0;
      for (const [bit, tag] of FORMATS) if (format & bit) html = `<${tag}>${html}</${tag}>`;
      return html;
    }
    case 'linebreak':
      return '<br>';
    case 'tab':
      return '\t';
    case 'paragraph':
      return `<p>${children()}</p>`;
    case 'heading':
    case 'extended-heading': {
      const tag = /^h[1-6]$/.test(str(node.tag)) ? str(node.tag) : 'h2';
      return `<${tag}>${children()}</${tag}>`;
    }
    case 'quote':
    case 'extended-quote':
    case 'aside':
      return `<blockquote>${children()}</blockquote>`;
    case 'list': {
      const tag = node.listType === 'number' ? 'ol' : 'ul';
      return `<${tag}>${children()}</${tag}>`;
    }
    case 'listitem':
      return `<li>${children()}</li>`;
    case 'link':
    case 'autolink':
      return `<a href="${escapeHtml(str(node.url))}">${children()}</a>`;
    case 'root':
      return children();
    default: {
      const html = renderCard(str(node.type), node);
      if (html === null) {
        notes.push(`a Ghost "${str(node.type)}" card was left out`);
        return '';
      }
      return html;
    }
  }
}

export function renderLexical(source: unknown, notes: string[]): string {
  const doc = obj(typeof source === 'string' ? JSON.parse(source) : source);
  return arr(obj(doc.root).children)
    .map((node) => renderLexicalNode(obj(node), notes))
    .join('\n');
}
