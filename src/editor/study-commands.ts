import { commandsCtx } from '@milkdown/kit/core';
import { wrapInBulletListCommand } from '@milkdown/kit/preset/commonmark';
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

export const studyCommandKeymap = $useKeymap('studyCommandKeymap', {
  TaskList: {
    shortcuts: 'Mod-Alt-9',
    command: (ctx) => () => ctx.get(commandsCtx).call(taskListCommand.key),
  },
  InsertFootnote: {
    shortcuts: 'Mod-Alt-f',
    command: (ctx) => () => ctx.get(commandsCtx).call(insertFootnoteCommand.key),
  },
});

export const studyCommands = [toggleTaskCommand, taskListCommand, insertFootnoteCommand, studyCommandKeymap].flat();
