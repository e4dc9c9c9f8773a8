import { toSafeColor } from './colors.ts';

/**
 * Markdown has no underline or colour, so the editor writes them as inline HTML
 * (`<u>…</u>`, `<span style="color: …">…</span>`). remark reads each tag as a separate `html`
 * node, which the commonmark preset would show as literal text. These helpers pair the opening
 * and closing tags back into mdast nodes the editor's marks understand, and print those nodes
 * as the same HTML again.
 */
export interface MdNode {
  type: string;
  value?: string;
  children?: MdNode[];
  [key: string]: unknown;
}

export type StyledNodeType = 'underline' | 'textColor' | 'bgColor';

interface Opener {
  nodes: MdNode[];
  close: 'u' | 'ins' | 'span';
}

const SPAN_OPEN = /^<span\s+style\s*=\s*(["'])([^"']*)\1\s*>$/i;

/** Reads one inline HTML tag as the start of underline or colour, or null when it is not one. */
export function readOpeningTag(html: string): Opener | null {
  const tag = html.trim();
  const simple = /^<(u|ins)>$/i.exec(tag);
  if (simple) return { nodes: [{ type: 'underline', children: [] }], close: simple[1]!.toLowerCase() as 'u' | 'ins' };
  const span = SPAN_OPEN.exec(tag);
  if (!span) return null;
  const nodes: MdNode[] = [];
  for (const declaration of span[2]!.split(';')) {
    if (declaration.trim() === '') continue;
    const colon = declaration.indexOf(':');
    if (colon < 0) return null;
    const property = declaration.slice(0, colon).trim().toLowerCase();
    const color = toSafeColor(declaration.slice(colon + 1));
    if (!color) return null;
    if (property === 'color') nodes.push({ type: 'textColor', color, children: [] });
    else if (property === 'background-color') nodes.push({ type: 'bgColor', color, children: [] });
    else return null;
  }
  return nodes.length > 0 ? { nodes, close: 'span' } : null;
}

function closingTagName(html: string): string | null {
  return /^<\/(u|ins|span)\s*>$/i.exec(html.trim())?.[1]?.toLowerCase() ?? null;
}

interface Frame {
  opener: Opener;
  source: MdNode;
  outer: MdNode;
  inner: MdNode;
  parent: MdNode[];
}

/** Pairs the tags inside one list of sibling nodes. Unpaired tags stay as they were. */
function pairSiblings(children: MdNode[]): MdNode[] {
  const root: MdNode[] = [];
  const stack: Frame[] = [];
  const target = () => (stack.length > 0 ? stack[stack.length - 1]!.inner.children! : root);
  for (const child of children) {
    if (child.type === 'html' && typeof child.value === 'string') {
      const opener = readOpeningTag(child.value);
      if (opener) {
        const [outer, ...rest] = opener.nodes;
        let inner = outer!;
        for (const node of rest) {
          inner.children!.push(node);
          inner = node;
        }
        stack.push({ opener, source: child, outer: outer!, inner, parent: target() });
        continue;
      }
      const closing = closingTagName(child.value);
      const top = stack[stack.length - 1];
      if (closing && top && top.opener.close === closing) {
        stack.pop();
        top.parent.push(top.outer);
        continue;
      }
    }
    target().push(child);
  }
  // Tags opened but never closed: put them back as plain HTML around what they held.
  while (stack.length > 0) {
    const frame = stack.pop()!;
    frame.parent.push(frame.source, ...frame.inner.children!);
  }
  return root;
}

/** Walks the whole tree (in place) and pairs tags in every list of children. */
export function pairInlineHtml(tree: MdNode): MdNode {
  if (tree.children) {
    for (const child of tree.children) pairInlineHtml(child);
    tree.children = pairSiblings(tree.children);
  }
  return tree;
}

interface Info {
  before: string;
  after: string;
  [key: string]: unknown;
}

interface StringifyState {
  containerPhrasing(node: MdNode, info: Info): string;
  enter(name: string): () => void;
}

function wrap(open: string, close: string, node: MdNode, state: StringifyState, info: Info): string {
  const exit = state.enter('phrasing');
  const inside = state.containerPhrasing(node, { ...info, before: '>', after: '<' });
  exit();
  return open + inside + close;
}

/** remark-stringify handlers that print the paired nodes as HTML again. */
export const styledNodeHandlers: Record<
  StyledNodeType,
  (node: MdNode, parent: unknown, state: StringifyState, info: Info) => string
> = {
  underline: (node, _parent, state, info) => wrap('<u>', '</u>', node, state, info),
  textColor: (node, _parent, state, info) => {
    const color = toSafeColor(node.color);
    return color ? wrap(`<span style="color: ${color}">`, '</span>', node, state, info) : state.containerPhrasing(node, info);
  },
  bgColor: (node, _parent, state, info) => {
    const color = toSafeColor(node.color);
    return color
      ? wrap(`<span style="background-color: ${color}">`, '</span>', node, state, info)
      : state.containerPhrasing(node, info);
  },
};
