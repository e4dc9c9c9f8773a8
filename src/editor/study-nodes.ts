import type { Node as ProseNode } from '@milkdown/kit/prose/model';
import { NodeSelection, TextSelection, type Command } from '@milkdown/kit/prose/state';
import { $command, $nodeSchema, $remark, $useKeymap, $view } from '@milkdown/kit/utils';
import { commandsCtx } from '@milkdown/kit/core';
import remarkMath from 'remark-math';
import temml from 'temml';
import { CALLOUT_KINDS, isCalloutKind, type CalloutKind } from '../shared/study-blocks.ts';

/**
 * The study blocks markdown's presets lack: inline and display formulas (TeX source, stored as
 * `<span data-type="math_inline">` and `<div data-type="math_block">`, `$…$` and `$$…$$` in
 * markdown) and callouts (`<div data-callout="tip">`). The server typesets formulas for readers
 * (src/server/content/render-article.ts); here a node view shows a live MathML preview.
 */

export const remarkMathPlugin = $remark('remarkMath', () => remarkMath);

function mathNode(id: 'math_inline' | 'math_block', inline: boolean) {
  const tag = inline ? 'span' : 'div';
  const mdType = inline ? 'inlineMath' : 'math';
  return $nodeSchema(id, () => ({
    group: inline ? 'inline' : 'block',
    inline,
    atom: true,
    selectable: true,
    attrs: { value: { default: '', validate: 'string' } },
    parseDOM: [{ tag: `${tag}[data-type="${id}"]`, getAttrs: (dom) => ({ value: (dom as HTMLElement).textContent ?? '' }) }],
    toDOM: (node: ProseNode) => [tag, { 'data-type': id }, String(node.attrs.value)],
    parseMarkdown: {
      match: (node) => node.type === mdType,
      runner: (state, node, type) => {
        state.addNode(type, { value: String(node.value ?? '') });
      },
    },
    toMarkdown: {
      match: (node) => node.type.name === id,
      runner: (state, node) => {
        state.addNode(mdType, undefined, String(node.attrs.value));
      },
    },
  }));
}

export const mathInlineSchema = mathNode('math_inline', true);
export const mathBlockSchema = mathNode('math_block', false);

/** Renders TeX for the editor's preview: MathML, or the source marked as an error with the reason. */
export function previewFormula(target: HTMLElement, value: string, display: boolean): string | null {
  try {
    target.innerHTML = temml.renderToString(value, { displayMode: display, throwOnError: true, trust: false });
    target.classList.remove('math-error');
    target.removeAttribute('title');
    return null;
  } catch (error) {
    const message = error instanceof Error ? error.message.replace(/^ParseError:\s*/, '') : 'Invalid formula';
    target.textContent = value || '(empty formula)';
    target.classList.add('math-error');
    target.title = message;
    return message;
  }
}

function mathView(inline: boolean) {
  return (node: ProseNode) => {
    const dom = document.createElement(inline ? 'span' : 'div');
    dom.className = inline ? 'editor-math' : 'editor-math editor-math-block';
    const paint = (current: ProseNode) => {
      previewFormula(dom, String(current.attrs.value), !inline);
      dom.setAttribute('aria-label', `Formula: ${String(current.attrs.value)}`);
    };
    paint(node);
    return {
      dom,
      update: (next: ProseNode) => {
        if (next.type !== node.type) return false;
        paint(next);
        return true;
      },
      ignoreMutation: () => true,
    };
  };
}

export const mathInlineView = $view(mathInlineSchema.node, () => mathView(true));
export const mathBlockView = $view(mathBlockSchema.node, () => mathView(false));

export interface MathPayload {
  value: string;
  display: boolean;
}

/** Inserts a formula, or replaces the selected one (the toolbar's Formula panel). */
export const insertMathCommand = $command(
  'InsertMath',
  (ctx) =>
    (payload?: MathPayload): Command =>
    (state, dispatch) => {
      if (!payload) return false;
      const type = (payload.display ? mathBlockSchema : mathInlineSchema).type(ctx);
      const node = type.create({ value: payload.value });
      const tr = state.tr.replaceSelectionWith(node);
      // After a display formula the writer goes on typing below it: in the paragraph that follows,
      // or a new one (ProseMirror leaves the formula selected, and typing would replace it).
      if (payload.display && tr.selection instanceof NodeSelection) {
        const end = tr.selection.to;
        const paragraph = state.schema.nodes.paragraph;
        if (!tr.doc.resolve(end).nodeAfter?.isTextblock && paragraph) tr.insert(end, paragraph.create());
        tr.setSelection(TextSelection.create(tr.doc, end + 1));
      }
      dispatch?.(tr.scrollIntoView());
      return true;
    },
);

export const calloutSchema = $nodeSchema('callout', () => ({
  group: 'block',
  content: 'block+',
  defining: true,
  attrs: { kind: { default: 'note', validate: 'string' } },
  parseDOM: [
    {
      tag: 'div[data-callout]',
      getAttrs: (dom) => {
        const kind = (dom as HTMLElement).dataset.callout;
        return isCalloutKind(kind) ? { kind } : false;
      },
    },
  ],
  toDOM: (node: ProseNode) => ['div', { 'data-callout': String(node.attrs.kind), class: 'editor-callout' }, 0],
  // Markdown keeps a callout as a GitHub-style alert blockquote ("> [!TIP]"); the editor loads HTML.
  parseMarkdown: { match: () => false, runner: () => {} },
  toMarkdown: {
    match: (node) => node.type.name === 'callout',
    runner: (state, node) => {
      state.openNode('blockquote');
      state.openNode('paragraph');
      state.addNode('text', undefined, `[!${String(node.attrs.kind).toUpperCase()}]`);
      state.closeNode();
      state.next(node.content);
      state.closeNode();
    },
  },
}));

/** Wraps the current block in a callout of this kind, or changes the kind of the one around it. */
export const setCalloutCommand = $command(
  'SetCallout',
  (ctx) =>
    (kind?: CalloutKind): Command =>
    (state, dispatch) => {
      if (!kind || !CALLOUT_KINDS.includes(kind)) return false;
      const type = calloutSchema.type(ctx);
      const { $from, $to } = state.selection;
      for (let depth = $from.depth; depth > 0; depth--) {
        if ($from.node(depth).type === type) {
          dispatch?.(state.tr.setNodeMarkup($from.before(depth), undefined, { kind }));
          return true;
        }
      }
      const range = $from.blockRange($to);
      if (!range) return false;
      dispatch?.(state.tr.wrap(range, [{ type, attrs: { kind } }]).scrollIntoView());
      return true;
    },
);

/** Takes the callout around the cursor away, keeping its content. */
export const removeCalloutCommand = $command(
  'RemoveCallout',
  (ctx) => (): Command => (state, dispatch) => {
    const type = calloutSchema.type(ctx);
    const { $from } = state.selection;
    for (let depth = $from.depth; depth > 0; depth--) {
      if ($from.node(depth).type !== type) continue;
      const start = $from.before(depth);
      const node = $from.node(depth);
      dispatch?.(state.tr.replaceWith(start, start + node.nodeSize, node.content));
      return true;
    }
    return false;
  },
);

/** The selected formula, for the Formula panel to edit. */
export function selectedMath(selection: unknown): MathPayload | null {
  if (!(selection instanceof NodeSelection)) return null;
  const name = selection.node.type.name;
  if (name !== 'math_inline' && name !== 'math_block') return null;
  return { value: String(selection.node.attrs.value), display: name === 'math_block' };
}

/** Enter on an empty last paragraph of a callout leaves the callout (as in a list or a quote). */
export const exitCalloutCommand = $command(
  'ExitCallout',
  (ctx) => (): Command => (state, dispatch) => {
    const { $from, empty } = state.selection;
    const depth = $from.depth - 1;
    if (!empty || depth < 1 || $from.parent.content.size > 0 || $from.node(depth).type !== calloutSchema.type(ctx)) return false;
    const callout = $from.node(depth);
    if ($from.index(depth) !== callout.childCount - 1 || callout.childCount < 2) return false;
    const paragraphStart = $from.before();
    const tr = state.tr.delete(paragraphStart, $from.after());
    const afterCallout = tr.mapping.map($from.after(depth));
    tr.insert(afterCallout, state.schema.nodes.paragraph!.create());
    dispatch?.(tr.setSelection(TextSelection.create(tr.doc, afterCallout + 1)).scrollIntoView());
    return true;
  },
);

export const studyKeymap = $useKeymap('studyBlocksKeymap', {
  ExitCallout: {
    shortcuts: 'Enter',
    priority: 60,
    command: (ctx) => () => ctx.get(commandsCtx).call(exitCalloutCommand.key),
  },
  RemoveCallout: {
    shortcuts: 'Mod-Alt-Backspace',
    command: (ctx) => () => ctx.get(commandsCtx).call(removeCalloutCommand.key),
  },
});

export const studyNodes = [
  remarkMathPlugin,
  mathInlineSchema,
  mathBlockSchema,
  mathInlineView,
  mathBlockView,
  insertMathCommand,
  calloutSchema,
  setCalloutCommand,
  removeCalloutCommand,
  exitCalloutCommand,
  studyKeymap,
].flat();
