import type { MarkType } from '@milkdown/kit/prose/model';
import type { EditorState } from '@milkdown/kit/prose/state';
import { selectedMath } from './study-nodes.ts';

/** What the toolbar shows as pressed, read from the editor's selection. */
export interface ToolbarState {
  heading: number;
  bold: boolean;
  italic: boolean;
  underline: boolean;
  link: boolean;
  href: string;
  textColor: string | null;
  bgColor: string | null;
  selectionEmpty: boolean;
  /** Study blocks (StudyToolbar): the code block's language, the table, callout or formula at the cursor. */
  codeLanguage: string | null;
  inTable: boolean;
  callout: string | null;
  mathValue: string | null;
  mathDisplay: boolean;
  inlineCode: boolean;
}

export const EMPTY_TOOLBAR_STATE: ToolbarState = {
  heading: 0,
  bold: false,
  italic: false,
  underline: false,
  link: false,
  href: '',
  textColor: null,
  bgColor: null,
  selectionEmpty: true,
  codeLanguage: null,
  inTable: false,
  callout: null,
  mathValue: null,
  mathDisplay: false,
  inlineCode: false,
};

/** The nearest ancestor of the cursor with this node type name, if any. */
function ancestor(state: EditorState, name: string) {
  const { $from } = state.selection;
  for (let depth = $from.depth; depth > 0; depth--) if ($from.node(depth).type.name === name) return $from.node(depth);
  return null;
}

/** The mark of this type at the cursor (or the first one in the selection), if any. */
function markAt(state: EditorState, type: MarkType | undefined) {
  if (!type) return null;
  const { selection } = state;
  if (selection.empty) return type.isInSet(state.storedMarks ?? selection.$from.marks()) ?? null;
  let found = null as ReturnType<MarkType['isInSet']> | null;
  state.doc.nodesBetween(selection.from, selection.to, (node) => {
    if (!found && node.isInline) found = type.isInSet(node.marks) ?? null;
    return !found;
  });
  return found;
}

export function readToolbarState(state: EditorState): ToolbarState {
  const { marks } = state.schema;
  const parent = state.selection.$from.parent;
  const link = markAt(state, marks.link);
  const math = selectedMath(state.selection);
  return {
    heading: parent.type.name === 'heading' ? Number(parent.attrs.level) : 0,
    bold: markAt(state, marks.strong) !== null,
    italic: markAt(state, marks.emphasis) !== null,
    underline: markAt(state, marks.underline) !== null,
    link: link !== null,
    href: link ? String(link.attrs.href ?? '') : '',
    textColor: (markAt(state, marks.textColor)?.attrs.color as string | undefined) ?? null,
    bgColor: (markAt(state, marks.bgColor)?.attrs.color as string | undefined) ?? null,
    selectionEmpty: state.selection.empty,
    codeLanguage: parent.type.name === 'code_block' ? String(parent.attrs.language ?? '') : null,
    inTable: ancestor(state, 'table') !== null,
    callout: (ancestor(state, 'callout')?.attrs.kind as string | undefined) ?? null,
    mathValue: math ? math.value : null,
    mathDisplay: math?.display ?? false,
    inlineCode: markAt(state, marks.inlineCode) !== null,
  };
}

/** Cheap equality so the toolbar re-renders only when something it shows changed. */
export function sameToolbarState(a: ToolbarState, b: ToolbarState): boolean {
  return (Object.keys(a) as Array<keyof ToolbarState>).every((key) => a[key] === b[key]);
}
