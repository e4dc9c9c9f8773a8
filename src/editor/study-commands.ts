import { commandsCtx } from '@milkdown/kit/core';
import { toggleInlineCodeCommand, wrapInBulletListCommand } from '@milkdown/kit/preset/commonmark';
import { isInTable, selectedRect } from '@milkdown/kit/prose/tables';
import type { MarkType, Node as ProseNode } from '@milkdown/kit/prose/model';
import { Plugin, PluginKey, TextSelection, type Command, type EditorState } from '@milkdown/kit/prose/state';
import { $command, $prose, $useKeymap } from '@milkdown/kit/utils';

/**
 * Task lists and footnotes from the toolbar: GFM's schema has both (a list item's `checked`, the
 * footnote reference and definition nodes) but no command to make them.
 */

function listItemDepth(state: Parameters<Command>[0]): number {
  const { $from } = state.selection;
  for (let depth = $from.depth; depth > 0; depth--) if ($from.node(depth).type.name === 'list_item') return depth;
  return -1;
}

/** Makes the list item at the cursor a task (unticked), or a plain item again. */
export const toggleTaskCommand = $command(
  'ToggleTask',
  () => (): Command => (state, dispatch) => {
    const depth = listItemDepth(state);
    if (depth < 0) return false;
    const item = state.selection.$from.node(depth);
    const checked = item.attrs.checked === null || item.attrs.checked === undefined ? false : null;
    dispatch?.(state.tr.setNodeMarkup(state.selection.$from.before(depth), undefined, { ...item.attrs, checked }));
    return true;
  },
);

/** A bulleted task list from the current paragraph, or task items in the current list. */
export const taskListCommand = $command(
  'TaskList',
  (ctx) => (): Command => (state) => {
    const commands = ctx.get(commandsCtx);
    if (listItemDepth(state) < 0 && !commands.call(wrapInBulletListCommand.key)) return false;
    return commands.call(toggleTaskCommand.key);
  },
);

function nextFootnoteLabel(doc: ProseNode): string {
  let highest = 0;
  doc.descendants((node) => {
    if (node.type.name === 'footnote_reference' || node.type.name === 'footnote_definition') {
      const n = Number(node.attrs.label);
      if (Number.isInteger(n)) highest = Math.max(highest, n);
    }
  });
  return String(highest + 1);
}

/** Puts a numbered footnote mark at the cursor and its note at the end, where the cursor goes. */
export const insertFootnoteCommand = $command(
  'InsertFootnote',
  () => (): Command => (state, dispatch) => {
    const { schema } = state;
    const reference = schema.nodes.footnote_reference;
    const definition = schema.nodes.footnote_definition;
    const paragraph = schema.nodes.paragraph;
    if (!reference || !definition || !paragraph) return false;
    const label = nextFootnoteLabel(state.doc);
    const tr = state.tr.replaceSelectionWith(reference.create({ label }), false);
    const end = tr.doc.content.size;
    tr.insert(end, definition.create({ label }, paragraph.create()));
    dispatch?.(tr.setSelection(TextSelection.create(tr.doc, end + 2)).scrollIntoView());
    return true;
  },
);

/**
 * Typing in code: Milkdown's inline code mark is not inclusive (text typed after a `code` span is
 * plain), so a code mark switched on at the cursor would cover one letter only. While this is on,
 * each typed letter keeps the mark for the next; moving the cursor, a new line or pressing the
 * button again ends it.
 */
const codeTypingKey = new PluginKey<boolean>('STUDY_SITE_CODE_TYPING');

function codeBeforeCursor(state: EditorState, code: MarkType): boolean {
  const $cursor = (state.selection as TextSelection).$cursor;
  return !!$cursor && !!code.isInSet($cursor.nodeBefore?.marks ?? []);
}

export const codeTypingPlugin = $prose(
  () =>
    new Plugin<boolean>({
      key: codeTypingKey,
      state: {
        init: () => false,
        apply: (tr, on, _old, next) => {
          const asked = tr.getMeta(codeTypingKey) as boolean | undefined;
          if (asked !== undefined) return asked;
          const code = next.schema.marks.inlineCode;
          if (!on || !code) return false;
          if (tr.docChanged) return codeBeforeCursor(next, code);
          return !tr.selectionSet;
        },
      },
      appendTransaction: (_trs, _old, state) => {
        const code = state.schema.marks.inlineCode;
        const $cursor = (state.selection as TextSelection).$cursor;
        if (!code || !$cursor || !codeTypingKey.getState(state)) return null;
        if (code.isInSet(state.storedMarks ?? [])) return null;
        return state.tr.setStoredMarks(code.create().addToSet(state.storedMarks ?? $cursor.marks()));
      },
    }),
);

/**
 * Inline code from the button or Mod+E: on a selection, Milkdown's toggle; with none, code for
 * what is typed next, as bold and italic are, until pressed again. (Milkdown's own command does
 * nothing without a selection, so the button seemed broken.)
 */
export const inlineCodeCommand = $command(
  'InlineCodeHere',
  (ctx) => (): Command => (state, dispatch) => {
    const code = state.schema.marks.inlineCode;
    if (!code) return false;
    if (!state.selection.empty) return ctx.get(commandsCtx).call(toggleInlineCodeCommand.key);
    const on = codeTypingKey.getState(state) === true || !!code.isInSet(state.storedMarks ?? []);
    const tr = on ? state.tr.removeStoredMark(code) : state.tr.addStoredMark(code.create());
    dispatch?.(tr.setMeta(codeTypingKey, !on));
    return true;
  },
);

/**
 * A horizontal rule below the block at the cursor (in place of it when it is an empty paragraph),
 * with the cursor in a paragraph after the rule, so writing goes on below it. (Milkdown's command
 * left the cursor above the rule: what was typed next landed in the paragraph before it.)
 */
export const insertRuleCommand = $command(
  'InsertRule',
  () => (): Command => (state, dispatch) => {
    const { hr, paragraph } = state.schema.nodes;
    const { $from } = state.selection;
    if (!hr || !paragraph || !$from.parent.isTextblock) return false;
    const empty = $from.parent.type === paragraph && $from.parent.content.size === 0;
    const from = empty ? $from.before() : $from.after();
    const tr = state.tr.replaceWith(from, empty ? $from.after() : from, hr.create());
    const afterRule = from + 1;
    if (!tr.doc.resolve(afterRule).nodeAfter?.isTextblock) tr.insert(afterRule, paragraph.create());
    dispatch?.(tr.setSelection(TextSelection.create(tr.doc, afterRule + 1)).scrollIntoView());
    return true;
  },
);

export type ColumnAlignment = 'left' | 'center' | 'right';

/**
 * Aligns the whole column at the cursor (or the selected columns), header included: markdown
 * tables align by column, and Milkdown's own command aligned only the one cell.
 */
export const alignColumnCommand = $command(
  'AlignColumn',
  () =>
    (alignment?: ColumnAlignment): Command =>
    (state, dispatch) => {
      if (!alignment || !isInTable(state)) return false;
      const { map, tableStart, left, right } = selectedRect(state);
      const tr = state.tr;
      for (let row = 0; row < map.height; row++) {
        for (let column = left; column < right; column++) {
          const pos = tableStart + map.map[row * map.width + column]!;
          const cell = tr.doc.nodeAt(pos);
          if (cell && cell.attrs.alignment !== alignment) tr.setNodeMarkup(pos, undefined, { ...cell.attrs, alignment });
        }
      }
      dispatch?.(tr);
      return true;
    },
);

export const studyCommandKeymap = $useKeymap('studyCommandKeymap', {
  InlineCodeHere: {
    shortcuts: 'Mod-e',
    priority: 60,
    command: (ctx) => () => ctx.get(commandsCtx).call(inlineCodeCommand.key),
  },
  TaskList: {
    shortcuts: 'Mod-Alt-9',
    command: (ctx) => () => ctx.get(commandsCtx).call(taskListCommand.key),
  },
  InsertFootnote: {
    shortcuts: 'Mod-Alt-f',
    command: (ctx) => () => ctx.get(commandsCtx).call(insertFootnoteCommand.key),
  },
});

export const studyCommands = [
  toggleTaskCommand,
  taskListCommand,
  insertFootnoteCommand,
  codeTypingPlugin,
  inlineCodeCommand,
  insertRuleCommand,
  alignColumnCommand,
  studyCommandKeymap,
].flat();
