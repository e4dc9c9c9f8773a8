import { editorViewCtx, type CmdKey } from '@milkdown/kit/core';
import type { Ctx } from '@milkdown/kit/ctx';
import {
  createCodeBlockCommand,
  updateCodeBlockLanguageCommand,
  wrapInBlockquoteCommand,
  wrapInBulletListCommand,
  wrapInOrderedListCommand,
} from '@milkdown/kit/preset/commonmark';
import { addColAfterCommand, addRowAfterCommand, insertTableCommand } from '@milkdown/kit/preset/gfm';
import { deleteColumn, deleteRow } from '@milkdown/kit/prose/tables';
import { useMemo } from 'react';
import {
  alignColumnCommand,
  inlineCodeCommand,
  insertFootnoteCommand,
  insertRuleCommand,
  taskListCommand,
} from './study-commands.ts';
import { insertMathCommand, removeCalloutCommand, setCalloutCommand } from './study-nodes.ts';
import type { StudyActions } from './study/StudyToolbar.tsx';
import type { TableAction } from './study/TablePanel.tsx';

type Call = <T>(key: CmdKey<T>, payload?: T) => void;
type Run = (fn: (ctx: Ctx) => void) => void;

/** The study toolbar's actions, each a Milkdown command run against the live editor. */
export function useStudyActions(call: Call, run: Run): StudyActions {
  return useMemo<StudyActions>(() => {
    const editTable = (action: TableAction) => {
      if (action === 'addRow') return call(addRowAfterCommand.key);
      if (action === 'addColumn') return call(addColAfterCommand.key);
      if (action === 'alignLeft') return call(alignColumnCommand.key, 'left');
      if (action === 'alignCenter') return call(alignColumnCommand.key, 'center');
      if (action === 'alignRight') return call(alignColumnCommand.key, 'right');
      run((ctx) => {
        const view = ctx.get(editorViewCtx);
        (action === 'deleteRow' ? deleteRow : deleteColumn)(view.state, view.dispatch);
      });
    };
    return {
      bulletList: () => call(wrapInBulletListCommand.key),
      orderedList: () => call(wrapInOrderedListCommand.key),
      taskList: () => call(taskListCommand.key),
      quote: () => call(wrapInBlockquoteCommand.key),
      inlineCode: () => call(inlineCodeCommand.key),
      codeBlock: (language) =>
        run((ctx) => {
          const view = ctx.get(editorViewCtx);
          const { $from } = view.state.selection;
          if ($from.parent.type.name === 'code_block') {
            call(updateCodeBlockLanguageCommand.key, { pos: $from.before(), language });
          } else call(createCodeBlockCommand.key, language);
        }),
      insertTable: (row, col) => call(insertTableCommand.key, { row, col }),
      editTable,
      math: (value, display) => call(insertMathCommand.key, { value, display }),
      callout: (kind) => call(setCalloutCommand.key, kind),
      removeCallout: () => call(removeCalloutCommand.key),
      footnote: () => call(insertFootnoteCommand.key),
      rule: () => call(insertRuleCommand.key),
      focusEditor: () => run(() => {}),
    };
  }, [call, run]);
}
