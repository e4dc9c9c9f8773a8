import { Element, Text, type Document } from 'domhandler';
import { appendChild, findAll, removeElement, replaceElement } from 'domutils';

/**
 * Footnotes as the editor stores them (GFM: `<sup data-type="footnote_reference" data-label>`
 * in the text, `<dl data-type="footnote_definition" data-label><dt/><dd/></dl>` anywhere) become
 * numbered links to an ordered list at the end, each with a link back. Numbers follow the order
 * of first reference; a definition nobody cites is still listed; a reference with no definition
 * stays as its label, unlinked. Labels were reduced to [\w-] by the sanitizer, so ids are safe.
 */
const el = (name: string, attribs: Record<string, string>, children: (Element | Text)[] = []) =>
  new Element(name, attribs, children);

export function renderFootnotes(doc: Document): void {
  const definitions = new Map<string, Element>();
  for (const dl of findAll((e) => e.name === 'dl' && e.attribs['data-type'] === 'footnote_definition', doc.children)) {
    const label = dl.attribs['data-label'];
    const dd = dl.children.find((c): c is Element => c instanceof Element && c.name === 'dd');
    if (label && dd && !definitions.has(label)) definitions.set(label, dd);
    removeElement(dl);
  }

  const order: string[] = [];
  const backlinks = new Map<string, string[]>();
  for (const sup of findAll((e) => e.name === 'sup' && e.attribs['data-type'] === 'footnote_reference', doc.children)) {
    const label = sup.attribs['data-label'] ?? '';
    if (!definitions.has(label)) {
      replaceElement(sup, el('sup', {}, [new Text(label)]));
      continue;
    }
    if (!order.includes(label)) order.push(label);
    const number = order.indexOf(label) + 1;
    const seen = backlinks.get(label) ?? [];
    const id = seen.length === 0 ? `fnref-${label}` : `fnref-${label}-${seen.length + 1}`;
    backlinks.set(label, [...seen, id]);
    const link = el('a', { href: `#fn-${label}`, id, 'aria-label': `Footnote ${number}` }, [new Text(String(number))]);
    replaceElement(sup, el('sup', { class: 'footnote-ref' }, [link]));
  }
  for (const label of definitions.keys()) if (!order.includes(label)) order.push(label);
  if (order.length === 0) return;

  const items = order.map((label, index) => {
    const dd = definitions.get(label)!;
    const back = (backlinks.get(label) ?? []).map((id, i) =>
      el(
        'a',
        { href: `#${id}`, class: 'footnote-back', 'aria-label': `Back to reference ${index + 1}${i > 0 ? ` (${i + 1})` : ''}` },
        [new Text('↩')],
      ),
    );
    const item = el('li', { id: `fn-${label}` }, []);
    for (const child of [...dd.children]) appendChild(item, child);
    for (const link of back) {
      appendChild(item, new Text(' '));
      appendChild(item, link);
    }
    return item;
  });
  const list = el('ol', {}, []);
  for (const item of items) appendChild(list, item);
  const section = el('section', { class: 'footnotes', 'aria-labelledby': 'footnotes-heading' }, [
    el('h2', { id: 'footnotes-heading' }, [new Text('Notes')]),
  ]);
  appendChild(section, list);
  appendChild(doc, section);
}
