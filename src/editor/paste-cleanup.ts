/**
 * HTML pasted from Word, Google Docs or a web page keeps its structure (headings, lists, tables,
 * links, bold, italic, underline) and loses the rest: styles, classes, ids, scripts, Office's
 * conditional comments and `<o:p>` noise. Bold, italic and underline written as styles (Google
 * Docs' `font-weight:700` spans) become the elements first; Docs' wrapping `<b
 * style="font-weight:normal">` is unwrapped, not made bold. A column's `text-align` in a table
 * survives. ProseMirror's own clipboard (data-pm-slice) is left alone: copying within the editor
 * keeps colours.
 */
const DROP = 'script, style, meta, link, title, template, iframe, object, embed, svg, math, o\\:p, xml';

function wrapChildren(element: HTMLElement, tag: string): void {
  const wrapper = element.ownerDocument.createElement(tag);
  while (element.firstChild) wrapper.append(element.firstChild);
  element.append(wrapper);
}

function unwrap(element: Element): void {
  element.replaceWith(...Array.from(element.childNodes));
}

function styleToElements(element: HTMLElement): void {
  const { style } = element;
  const weight = style.fontWeight;
  if (element.tagName === 'B' && (weight === 'normal' || weight === '400')) {
    unwrap(element);
    return;
  }
  if (weight === 'bold' || Number(weight) >= 600) wrapChildren(element, 'strong');
  if (style.fontStyle === 'italic') wrapChildren(element, 'em');
  if (/underline/.test(style.textDecoration || style.textDecorationLine)) wrapChildren(element, 'u');
}

export function cleanPastedHtml(html: string): string {
  if (html.includes('data-pm-slice')) return html;
  const body = new DOMParser().parseFromString(html.replace(/<!--\[if[\s\S]*?<!\[endif\]-->/g, ''), 'text/html').body;
  for (const element of Array.from(body.querySelectorAll(DROP))) element.remove();
  for (const element of Array.from(body.querySelectorAll<HTMLElement>('[style]'))) styleToElements(element);
  for (const element of Array.from(body.querySelectorAll<HTMLElement>('*'))) {
    const align = element.matches('th, td') ? element.style.textAlign : '';
    for (const name of element.getAttributeNames()) {
      if (name === 'style' || name === 'class' || name === 'id' || name.startsWith('on') || name.startsWith('data-')) {
        element.removeAttribute(name);
      }
    }
    if (align) element.setAttribute('style', `text-align: ${align}`);
  }
  return body.innerHTML;
}
