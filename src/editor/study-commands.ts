import { commandsCtx } from '@milkdown/kit/core';
import { toggleInlineCodeCommand, wrapInBulletListCommand } from '@milkdown/kit/preset/commonmark';
import { toggleMark } from '@milkdown/kit/prose/commands';
import { isInTable, selectedRect } from '@milkdown/kit/prose/tables';
import type { Node as ProseNode } from '@milkdown/kit/prose/model';
import { TextSelection, type Command } from '@milkdown/kit/prose/state';
import { $command, $useKeymap } from '@milkdown/kit/utils';

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
 * Inline code from the button or Mod+E: on a selection, Milkdown's toggle; with none, the code
 * mark is switched on (or off) for what is typed next, as bold and italic are. (Milkdown's own
 * command does nothing without a selection, so the button seemed broken.)
 */
export const inlineCodeCommand = $command(
  'InlineCodeHere',
  (ctx) => (): Command => (state, dispatch) => {
    const code = state.schema.marks.inlineCode;
    if (!code) return false;
    if (state.selection.empty) return toggleMark(code)(state, dispatch);
    return ctx.get(commandsCtx).call(toggleInlineCodeCommand.key);
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
  inlineCodeCommand,
  alignColumnCommand,
  studyCommandKeymap,
].flat();
