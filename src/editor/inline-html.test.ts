import { describe, expect, it } from 'vitest';
import { pairInlineHtml, readOpeningTag, styledNodeHandlers, type MdNode } from './inline-html.ts';

const html = (value: string): MdNode => ({ type: 'html', value });
const text = (value: string): MdNode => ({ type: 'text', value });
const paragraph = (...children: MdNode[]): MdNode => ({ type: 'root', children: [{ type: 'paragraph', children }] });
const firstParagraph = (tree: MdNode) => tree.children![0]!.children!;

describe('readOpeningTag', () => {
  it('reads underline and colour tags', () => {
    expect(readOpeningTag('<u>')?.nodes.map((n) => n.type)).toEqual(['underline']);
    expect(readOpeningTag('<INS>')?.close).toBe('ins');
    expect(readOpeningTag('<span style="color: #b91c1c">')?.nodes).toEqual([
      { type: 'textColor', color: '#b91c1c', children: [] },
    ]);
    expect(readOpeningTag("<span style='background-color: rgb(254, 240, 138);'>")?.nodes).toEqual([
      { type: 'bgColor', color: 'rgb(254, 240, 138)', children: [] },
    ]);
    expect(readOpeningTag('<span style="color: red; background-color: yellow">')?.nodes.map((n) => n.type)).toEqual([
      'textColor',
      'bgColor',
    ]);
  });

  it('refuses other tags, other properties and unsafe values', () => {
    expect(readOpeningTag('<b>')).toBeNull();
    expect(readOpeningTag('<span>')).toBeNull();
    expect(readOpeningTag('<span style="font-size: 40px">')).toBeNull();
    expect(readOpeningTag('<span style="color: url(x)">')).toBeNull();
    expect(readOpeningTag('<span style="color: red" onclick="x()">')).toBeNull();
  });
});

describe('pairInlineHtml', () => {
  it('wraps what sits between an opening and a closing tag', () => {
    const tree = pairInlineHtml(paragraph(text('a '), html('<u>'), text('under'), html('</u>'), text(' b')));
    expect(firstParagraph(tree)).toEqual([text('a '), { type: 'underline', children: [text('under')] }, text(' b')]);
  });

  it('nests tags and a span with two colours', () => {
    const tree = pairInlineHtml(
      paragraph(
        html('<span style="color: red">'),
        text('x '),
        html('<u>'),
        text('y'),
        html('</u>'),
        html('</span>'),
        html('<span style="color: red; background-color: yellow">'),
        text('z'),
        html('</span>'),
      ),
    );
    expect(firstParagraph(tree)).toEqual([
      { type: 'textColor', color: 'red', children: [text('x '), { type: 'underline', children: [text('y')] }] },
      { type: 'textColor', color: 'red', children: [{ type: 'bgColor', color: 'yellow', children: [text('z')] }] },
    ]);
  });

  it('leaves unpaired tags as they were', () => {
    const open = paragraph(text('a'), html('<u>'), text('b'));
    expect(firstParagraph(pairInlineHtml(structuredClone(open)))).toEqual(firstParagraph(open));
    const close = paragraph(text('a'), html('</span>'), text('b'));
    expect(firstParagraph(pairInlineHtml(structuredClone(close)))).toEqual(firstParagraph(close));
    const crossed = paragraph(html('<u>'), text('a'), html('</span>'), text('b'));
    expect(firstParagraph(pairInlineHtml(structuredClone(crossed)))).toEqual(firstParagraph(crossed));
  });

  it('works inside nested blocks such as list items', () => {
    const tree: MdNode = {
      type: 'root',
      children: [
        {
          type: 'list',
          children: [
            { type: 'listItem', children: [{ type: 'paragraph', children: [html('<u>'), text('deep'), html('</u>')] }] },
          ],
        },
      ],
    };
    pairInlineHtml(tree);
    expect(tree.children![0]!.children![0]!.children![0]!.children).toEqual([{ type: 'underline', children: [text('deep')] }]);
  });
});

describe('styledNodeHandlers', () => {
  // A stand-in for remark-stringify's state: children are plain text here.
  const state = {
    containerPhrasing: (node: MdNode) => (node.children ?? []).map((child) => child.value ?? '').join(''),
    enter: () => () => {},
  };
  const info = { before: '', after: '' };

  it('prints the nodes as the HTML the marks read back', () => {
    expect(styledNodeHandlers.underline({ type: 'underline', children: [text('u')] }, null, state, info)).toBe('<u>u</u>');
    expect(styledNodeHandlers.textColor({ type: 'textColor', color: '#b91c1c', children: [text('c')] }, null, state, info)).toBe(
      '<span style="color: #b91c1c">c</span>',
    );
    expect(styledNodeHandlers.bgColor({ type: 'bgColor', color: 'yellow', children: [text('b')] }, null, state, info)).toBe(
      '<span style="background-color: yellow">b</span>',
    );
  });

  it('drops a colour that is not allowed but keeps the text', () => {
    expect(styledNodeHandlers.textColor({ type: 'textColor', color: 'url(x)', children: [text('t')] }, null, state, info)).toBe(
      't',
    );
  });

  it('round-trips: printed HTML pairs back into the same node', () => {
    const printed = styledNodeHandlers.textColor(
      { type: 'textColor', color: 'rgb(1, 2, 3)', children: [text('t')] },
      null,
      state,
      info,
    );
    const [open, rest] = [printed.slice(0, printed.indexOf('>') + 1), printed.slice(printed.indexOf('>') + 1)];
    const tree = pairInlineHtml(paragraph(html(open), text(rest.replace('</span>', '')), html('</span>')));
    expect(firstParagraph(tree)).toEqual([{ type: 'textColor', color: 'rgb(1, 2, 3)', children: [text('t')] }]);
  });
});
