import { commandsCtx, remarkStringifyOptionsCtx } from '@milkdown/kit/core';
import type { Ctx } from '@milkdown/kit/ctx';
import { linkSchema } from '@milkdown/kit/preset/commonmark';
import { toggleMark } from '@milkdown/kit/prose/commands';
import type { Mark, MarkType } from '@milkdown/kit/prose/model';
import type { Command } from '@milkdown/kit/prose/state';
import { $command, $markSchema, $remark, $useKeymap } from '@milkdown/kit/utils';
import { toSafeColor } from './colors.ts';
import { pairInlineHtml, styledNodeHandlers, type MdNode } from './inline-html.ts';
import { toSafeHref } from './safe-href.ts';

/**
 * The marks markdown lacks (underline, text colour, background colour) and the link mark made
 * safe. Each reads and writes HTML (<u>, <span style="color: …">, <span style="background-color:
 * …">) and markdown (the same tags inline, paired back by remarkStyledTags).
 */

export const underlineSchema = $markSchema('underline', () => ({
  parseDOM: [
    { tag: 'u' },
    { tag: 'ins' },
    { style: 'text-decoration', getAttrs: (value: string) => (/\bunderline\b/.test(value) ? null : false) },
    { style: 'text-decoration-line', getAttrs: (value: string) => (/\bunderline\b/.test(value) ? null : false) },
  ],
  toDOM: () => ['u', 0],
  parseMarkdown: {
    match: (node) => node.type === 'underline',
    runner: (state, node, markType) => {
      state.openMark(markType);
      state.next(node.children);
      state.closeMark(markType);
    },
  },
  toMarkdown: {
    match: (mark) => mark.type.name === 'underline',
    runner: (state, mark) => {
      state.withMark(mark, 'underline');
    },
  },
}));

function colorMark(id: 'textColor' | 'bgColor', property: 'color' | 'background-color') {
  return $markSchema(id, () => ({
    attrs: { color: { validate: 'string' } },
    // Typing at the end of coloured text starts plain text again, as after a link.
    inclusive: false,
    parseDOM: [
      {
        style: property,
        getAttrs: (value: string) => {
          const color = toSafeColor(value);
          return color ? { color } : false;
        },
      },
    ],
    toDOM: (mark: Mark) => {
      const color = toSafeColor(mark.attrs.color);
      return color ? ['span', { style: `${property}: ${color}` }, 0] : ['span', 0];
    },
    parseMarkdown: {
      match: (node) => node.type === id,
      runner: (state, node, markType) => {
        const color = toSafeColor(node.color);
        if (color) state.openMark(markType, { color });
        state.next(node.children);
        if (color) state.closeMark(markType);
      },
    },
    toMarkdown: {
      match: (mark) => mark.type.name === id,
      runner: (state, mark) => {
        state.withMark(mark, id, undefined, { color: mark.attrs.color });
      },
    },
  }));
}

export const textColorSchema = colorMark('textColor', 'color');
export const bgColorSchema = colorMark('bgColor', 'background-color');

/** The commonmark link mark, with every way in and out passing through the protocol allow-list. */
export const safeLinkSchema = linkSchema.extendSchema((previous) => (ctx) => {
  const base = previous(ctx);
  return {
    ...base,
    // Typing at the end of a link does not extend it ("linkword red" must not link " red").
    inclusive: false,
    parseDOM: [
      {
        tag: 'a[href]',
        getAttrs: (dom: HTMLElement) => ({ href: toSafeHref(dom.getAttribute('href')), title: dom.getAttribute('title') }),
      },
    ],
    toDOM: (mark: Mark) => {
      const attrs: Record<string, string> = { href: toSafeHref(mark.attrs.href) };
      if (mark.attrs.title) attrs.title = String(mark.attrs.title);
      return ['a', attrs, 0];
    },
    parseMarkdown: {
      match: (node) => node.type === 'link',
      runner: (state, node, markType) => {
        state.openMark(markType, { href: toSafeHref(node.url), title: (node.title as string | null) ?? null });
        state.next(node.children);
        state.closeMark(markType);
      },
    },
    toMarkdown: {
      match: (mark) => mark.type.name === 'link',
      runner: (state, mark) => {
        state.withMark(mark, 'link', undefined, { title: mark.attrs.title, url: toSafeHref(mark.attrs.href) });
      },
    },
  };
});

/** Pairs `<u>`…`</u>` and colour spans in parsed markdown into the nodes the marks read. */
export const remarkStyledTags = $remark('remarkStyledTags', () => () => (tree: unknown) => {
  pairInlineHtml(tree as MdNode);
});

/** Teaches remark-stringify to print the three styled nodes; call from `editor.config`. */
export function addStyledNodePrinters(ctx: Ctx): void {
  ctx.update(remarkStringifyOptionsCtx, (options) => ({
    ...options,
    handlers: { ...options.handlers, ...(styledNodeHandlers as unknown as NonNullable<typeof options.handlers>) },
  }));
}

export const toggleUnderlineCommand = $command('ToggleUnderline', (ctx) => () => toggleMark(underlineSchema.type(ctx)));

/** Replaces a mark's attributes over the selection, or removes the mark when attrs is null. */
function setMarkOnSelection(type: MarkType, attrs: Record<string, string> | null): Command {
  return (state, dispatch) => {
    const { selection } = state;
    if (!dispatch) return true;
    const tr = state.tr;
    if (selection.empty) {
      tr.removeStoredMark(type);
      if (attrs) tr.addStoredMark(type.create(attrs));
      dispatch(tr);
      return true;
    }
    for (const range of selection.ranges) {
      tr.removeMark(range.$from.pos, range.$to.pos, type);
      if (attrs) tr.addMark(range.$from.pos, range.$to.pos, type.create(attrs));
    }
    dispatch(tr.scrollIntoView());
    return true;
  };
}

/** Payload: a colour, or an empty string to remove the colour. Disallowed colours do nothing. */
export const setTextColorCommand = $command('SetTextColor', (ctx) => (color: string = '') => {
  const safe = color === '' ? null : toSafeColor(color);
  if (color !== '' && !safe) return () => false;
  return setMarkOnSelection(textColorSchema.type(ctx), safe ? { color: safe } : null);
});

export const setBackgroundColorCommand = $command('SetBackgroundColor', (ctx) => (color: string = '') => {
  const safe = color === '' ? null : toSafeColor(color);
  if (color !== '' && !safe) return () => false;
  return setMarkOnSelection(bgColorSchema.type(ctx), safe ? { color: safe } : null);
});

/**
 * Links the selection to href (made safe first; a disallowed address becomes ""). With an empty
 * selection inside a link, that whole link is updated; elsewhere the address itself is inserted
 * as the link's text.
 */
export const setLinkCommand = $command('SetSafeLink', (ctx) => (href: string = '') => (state, dispatch) => {
  const type = linkSchema.type(ctx);
  const safe = toSafeHref(href);
  const { selection } = state;
  if (!dispatch) return true;
  const tr = state.tr;
  if (selection.empty) {
    const range = linkRangeAt(state.doc, selection.from, type);
    if (range) {
      tr.removeMark(range.from, range.to, type).addMark(range.from, range.to, type.create({ href: safe }));
    } else {
      const text = href.trim() || safe;
      if (!text) return false;
      tr.insert(selection.from, state.schema.text(text, [...selection.$from.marks(), type.create({ href: safe })]));
    }
  } else {
    tr.removeMark(selection.from, selection.to, type).addMark(selection.from, selection.to, type.create({ href: safe }));
  }
  dispatch(tr.scrollIntoView());
  return true;
});

export const removeLinkCommand = $command('RemoveSafeLink', (ctx) => () => (state, dispatch) => {
  const type = linkSchema.type(ctx);
  const { selection } = state;
  const range = selection.empty ? linkRangeAt(state.doc, selection.from, type) : { from: selection.from, to: selection.to };
  if (!range) return false;
  dispatch?.(state.tr.removeMark(range.from, range.to, type).scrollIntoView());
  return true;
});

type DocNode = Parameters<Command>[0]['doc'];

/** The extent of the link mark at pos (a cursor at either end counts) inside its textblock, or null. */
export function linkRangeAt(doc: DocNode, pos: number, type: MarkType): { from: number; to: number; href: string } | null {
  const $pos = doc.resolve(pos);
  const start = $pos.start();
  const runs: Array<{ from: number; to: number; mark: Mark }> = [];
  $pos.parent.forEach((child, offset) => {
    const mark = type.isInSet(child.marks);
    if (!mark) return;
    const from = start + offset;
    const last = runs[runs.length - 1];
    if (last && last.to === from && last.mark.eq(mark)) last.to = from + child.nodeSize;
    else runs.push({ from, to: from + child.nodeSize, mark });
  });
  const run = runs.find((r) => r.from < pos && pos < r.to) ?? runs.find((r) => r.from <= pos && pos <= r.to);
  return run ? { from: run.from, to: run.to, href: String(run.mark.attrs.href ?? '') } : null;
}

export const underlineKeymap = $useKeymap('underlineKeymap', {
  ToggleUnderline: {
    shortcuts: ['Mod-u'],
    command: (ctx) => {
      const commands = ctx.get(commandsCtx);
      return () => commands.call(toggleUnderlineCommand.key);
    },
  },
});

/** Everything above, in the order `editor.use` needs. */
export const styledMarks = [
  underlineSchema,
  textColorSchema,
  bgColorSchema,
  safeLinkSchema,
  remarkStyledTags,
  toggleUnderlineCommand,
  setTextColorCommand,
  setBackgroundColorCommand,
  setLinkCommand,
  removeLinkCommand,
  underlineKeymap,
].flat();
