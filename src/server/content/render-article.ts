import render from 'dom-serializer';
import { Element, Text, type ChildNode, type Document } from 'domhandler';
import { appendChild, findAll, prependChild, replaceElement, textContent } from 'domutils';
import { parseDocument } from 'htmlparser2';
import { CALLOUT_TITLES, isCalloutKind } from '../../shared/study-blocks.ts';
import { highlightCode } from './render-code.ts';
import { renderFootnotes } from './render-footnotes.ts';
import { loadFormulaTypesetter } from './render-math.ts';

/**
 * Turns an article's stored (already sanitized) HTML into what readers get, at page render:
 * formulas typeset to MathML, code highlighted, tables and wide formulas in sideways-scrolling
 * frames, callouts titled, task items ticked, footnotes numbered. No script is needed to read
 * any of it. Typeset pieces are produced as strings by trusted libraries from text (never from
 * markup), so they are spliced in after serializing, at placeholders no article can forge.
 */
export interface RenderedArticle {
  html: string;
  /** The page needs the math stylesheet. */
  hasMath: boolean;
  /** The page gets the copy-code button script. */
  hasCode: boolean;
}

const SLOT = '\uE001';
/** TeX this long may typeset wider than a phone's line (about 35 symbols at body size). */
const WIDE_INLINE_TEX = 24;
const SLOT_PATTERN = new RegExp(`${SLOT}(\\d+)${SLOT}`, 'g');

const is = (name: string, attr?: string, value?: string) => (e: Element) =>
  e.name === name && (attr === undefined || (value === undefined ? attr in e.attribs : e.attribs[attr] === value));

function wrap(node: Element, attribs: Record<string, string>, tag = 'div'): void {
  const frame = new Element(tag, attribs, []);
  replaceElement(node, frame);
  appendChild(frame, node);
}

/** A GFM header row (`tr data-is-header`, or a first row of th only) moves into a thead. */
function renderTable(table: Element): void {
  const rows = findAll(is('tr'), table.children);
  for (const row of rows) delete row.attribs['data-is-header'];
  const hasHead = table.children.some((c) => c instanceof Element && c.name === 'thead');
  const first = rows[0];
  const allHeader = first?.children.every((c) => !(c instanceof Element) || c.name === 'th');
  if (!hasHead && first && allHeader && first.children.some((c) => c instanceof Element)) {
    const thead = new Element('thead', {}, []);
    replaceElement(first, thead);
    appendChild(thead, first);
    // A thead inside a tbody is invalid: lift it to the table's start.
    if (thead.parent !== table) {
      replaceElement(thead, new Text(''));
      prependChild(table, thead);
    }
  }
  wrap(table, { class: 'table-scroll', tabindex: '0' });
}

function renderCallout(box: Element): void {
  const kind = box.attribs['data-callout'];
  if (!isCalloutKind(kind)) {
    delete box.attribs['data-callout'];
    return;
  }
  box.attribs = { class: `callout callout-${kind}`, role: 'note' };
  prependChild(box, new Element('p', { class: 'callout-title' }, [new Text(CALLOUT_TITLES[kind])]));
}

function renderTask(item: Element): void {
  const checked = item.attribs['data-checked'] === 'true';
  item.attribs = { class: 'task-item' };
  const box = new Element('input', { type: 'checkbox', disabled: '', 'aria-label': checked ? 'Done' : 'To do' });
  if (checked) box.attribs.checked = '';
  prependChild(item, box);
  const list = item.parent;
  if (list instanceof Element && !list.attribs.class) list.attribs.class = 'task-list';
}

export async function renderArticleHtml(stored: string): Promise<RenderedArticle> {
  const doc: Document = parseDocument(stored.replaceAll(SLOT, ''), { decodeEntities: true });
  const pieces: Promise<string>[] = [];
  const slot = (node: ChildNode, piece: Promise<string> | string) => {
    pieces.push(Promise.resolve(piece));
    replaceElement(node, new Text(`${SLOT}${pieces.length - 1}${SLOT}`));
  };

  const inline = findAll(is('span', 'data-type', 'math_inline'), doc.children);
  const display = findAll(is('div', 'data-type', 'math_block'), doc.children);
  const typesetFormula = inline.length + display.length > 0 ? await loadFormulaTypesetter() : null;
  for (const node of inline) {
    const tex = textContent(node);
    const formula = typesetFormula!(tex, false);
    // Browsers do not break a formula across lines: a long one scrolls in its own frame (which
    // keyboard users can focus to scroll) instead of widening the page on a phone. An invalid
    // one is text that wraps, so it is left unframed.
    if (!formula.error) {
      wrap(
        node,
        tex.trim().length >= WIDE_INLINE_TEX ? { class: 'math-inline', tabindex: '0' } : { class: 'math-inline' },
        'span',
      );
    }
    slot(node, formula.html);
  }
  for (const node of display) {
    wrap(node, { class: 'math-display', tabindex: '0' });
    slot(node, typesetFormula!(textContent(node), true).html);
  }
  const code = findAll(is('pre'), doc.children);
  for (const pre of code) slot(pre, highlightCode(textContent(pre), pre.attribs['data-language']));

  for (const table of findAll(is('table'), doc.children)) renderTable(table);
  for (const box of findAll(is('div', 'data-callout'), doc.children)) renderCallout(box);
  for (const item of findAll(is('li', 'data-item-type', 'task'), doc.children)) renderTask(item);
  renderFootnotes(doc);

  const resolved = await Promise.all(pieces);
  const html = render(doc, { encodeEntities: 'utf8' }).replace(SLOT_PATTERN, (_, i: string) => resolved[Number(i)] ?? '');
  return { html, hasMath: inline.length + display.length > 0, hasCode: code.length > 0 };
}
