import type { CalloutKind } from '../../shared/study-blocks.ts';
import type { ToolbarState } from '../toolbar-state.ts';
import { ToolbarButton } from '../toolbar/ToolbarButton.tsx';
import { CalloutPanel } from './CalloutPanel.tsx';
import { CodePanel } from './CodePanel.tsx';
import { MathPanel } from './MathPanel.tsx';
import { ShortcutsPanel } from './ShortcutsPanel.tsx';
import { TablePanel, type TableAction } from './TablePanel.tsx';

export interface StudyActions {
  bulletList: () => void;
  orderedList: () => void;
  taskList: () => void;
  quote: () => void;
  inlineCode: () => void;
  codeBlock: (language: string) => void;
  insertTable: (rows: number, columns: number) => void;
  editTable: (action: TableAction) => void;
  math: (value: string, display: boolean) => void;
  callout: (kind: CalloutKind) => void;
  removeCallout: () => void;
  footnote: () => void;
  rule: () => void;
  focusEditor: () => void;
}

export type StudyPanel = 'code' | 'table' | 'math' | 'callout' | 'help';

const BUTTONS: {
  label: string;
  glyph: string;
  panel?: StudyPanel;
  act?: keyof StudyActions;
  pressed?: (s: ToolbarState) => boolean;
}[] = [
  { label: 'Bulleted list', glyph: '•≡', act: 'bulletList' },
  { label: 'Numbered list', glyph: '#≡', act: 'orderedList' },
  { label: 'Task list', glyph: '☑', act: 'taskList' },
  { label: 'Quote', glyph: '❝', act: 'quote' },
  { label: 'Inline code', glyph: '</>', act: 'inlineCode', pressed: (s) => s.inlineCode },
  { label: 'Code block', glyph: '{ }', panel: 'code', pressed: (s) => s.codeLanguage !== null },
  { label: 'Table', glyph: '▦', panel: 'table', pressed: (s) => s.inTable },
  { label: 'Formula', glyph: '√', panel: 'math', pressed: (s) => s.mathValue !== null },
  { label: 'Callout', glyph: '!', panel: 'callout', pressed: (s) => s.callout !== null },
  { label: 'Footnote', glyph: '†', act: 'footnote' },
  { label: 'Horizontal rule', glyph: '―', act: 'rule' },
  { label: 'Keyboard shortcuts', glyph: '?', panel: 'help' },
];

/** The first study button's place in the toolbar: after the ten formatting buttons (docs/product.md#article-form). */
export const FIRST_STUDY_INDEX = 10;

/**
 * The study-material buttons, after the formatting ones in the same toolbar (whose first ten stay
 * as docs/product.md#article-form lists them): lists, quote, code, tables, formulas, callouts, footnotes, rule and the
 * shortcut list. Buttons that open a panel report aria-expanded; the panels render below the
 * toolbar (StudyPanels).
 */
export function StudyButtons({
  state,
  actions,
  panel,
  setPanel,
}: {
  state: ToolbarState;
  actions: StudyActions;
  panel: StudyPanel | null;
  setPanel: (panel: StudyPanel | null) => void;
}) {
  return (
    <div className="tb-group tb-study">
      {BUTTONS.map((button, i) => (
        <ToolbarButton
          key={button.label}
          index={FIRST_STUDY_INDEX + i}
          label={button.label}
          pressed={button.pressed?.(state)}
          {...(button.panel
            ? { expanded: panel === button.panel, onPress: () => setPanel(panel === button.panel ? null : button.panel!) }
            : { onPress: () => (actions[button.act!] as () => void)() })}
        >
          <span aria-hidden="true">{button.glyph}</span>
        </ToolbarButton>
      ))}
    </div>
  );
}

/** The open study panel, below the toolbar; closing it returns the keyboard to its button. */
export function StudyPanels({
  state,
  actions,
  panel,
  setPanel,
  toolbar,
}: {
  state: ToolbarState;
  actions: StudyActions;
  panel: StudyPanel | null;
  setPanel: (panel: StudyPanel | null) => void;
  toolbar: () => HTMLElement | null;
}) {
  const close = () => {
    const trigger = toolbar()?.querySelector<HTMLButtonElement>('.tb-study [aria-expanded="true"]');
    setPanel(null);
    if (trigger) trigger.focus();
    else actions.focusEditor();
  };
  const done = (act: () => void) => {
    act();
    setPanel(null);
  };
  return (
    <>
      {panel === 'code' && (
        <CodePanel current={state.codeLanguage} onApply={(lang) => done(() => actions.codeBlock(lang))} onClose={close} />
      )}
      {panel === 'table' && (
        <TablePanel
          inTable={state.inTable}
          onInsert={(rows, columns) => done(() => actions.insertTable(rows, columns))}
          onEdit={(action) => done(() => actions.editTable(action))}
          onClose={close}
        />
      )}
      {panel === 'math' && (
        <MathPanel
          current={state.mathValue}
          currentDisplay={state.mathDisplay}
          onApply={(value, display) => done(() => actions.math(value, display))}
          onClose={close}
        />
      )}
      {panel === 'callout' && (
        <CalloutPanel
          current={state.callout}
          onPick={(kind) => done(() => actions.callout(kind))}
          onRemove={() => done(actions.removeCallout)}
          onClose={close}
        />
      )}
      {panel === 'help' && <ShortcutsPanel onClose={close} />}
    </>
  );
}
