import { useRef, useState, type KeyboardEvent } from 'react';
import type { CalloutKind } from '../../shared/study-blocks.ts';
import type { ToolbarState } from '../toolbar-state.ts';
import { ToolbarButton, ToolbarFocusContext } from '../toolbar/ToolbarButton.tsx';
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

/** A request from a keyboard shortcut in the text to open a panel (seq makes each one new). */
export interface PanelRequest {
  panel: StudyPanel;
  seq: number;
}

function nextIndex(key: string, current: number, count: number): number | null {
  if (key === 'ArrowRight') return (current + 1) % count;
  if (key === 'ArrowLeft') return (current - 1 + count) % count;
  if (key === 'Home') return 0;
  if (key === 'End') return count - 1;
  return null;
}

const BUTTONS: {
  label: string;
  glyph: string;
  panel?: StudyPanel;
  act?: keyof StudyActions;
  pressed?: (s: ToolbarState) => boolean;
}[] = [
  { label: 'Bulleted list', glyph: '•≡', act: 'bulletList' },
  { label: 'Numbered list', glyph: '1≡', act: 'orderedList' },
  { label: 'Task list', glyph: '☑', act: 'taskList' },
  { label: 'Quote', glyph: '❝', act: 'quote' },
  { label: 'Inline code', glyph: '</>', act: 'inlineCode', pressed: (s) => s.inlineCode },
  { label: 'Code block', glyph: '{ }', panel: 'code', pressed: (s) => s.codeLanguage !== null },
  { label: 'Table', glyph: '▦', panel: 'table', pressed: (s) => s.inTable },
  { label: 'Formula', glyph: '√x', panel: 'math', pressed: (s) => s.mathValue !== null },
  { label: 'Callout', glyph: '!', panel: 'callout', pressed: (s) => s.callout !== null },
  { label: 'Footnote', glyph: 'x¹', act: 'footnote' },
  { label: 'Horizontal rule', glyph: '―', act: 'rule' },
  { label: 'Keyboard shortcuts', glyph: '?', panel: 'help' },
];

/**
 * The study-material toolbar, a second row after the formatting one (which stays as SPEC.md has
 * it): lists, quote, code, tables, formulas, callouts, footnotes, rule and the shortcut list.
 * Same pattern: one tab stop, arrow keys move, panels open below.
 */
export function StudyToolbar({
  state,
  actions,
  disabled,
  request,
}: {
  state: ToolbarState;
  actions: StudyActions;
  disabled: boolean;
  request: PanelRequest | null;
}) {
  const [panel, setPanel] = useState<StudyPanel | null>(null);
  const [focusIndex, setFocusIndex] = useState(0);
  const toolbarRef = useRef<HTMLDivElement>(null);
  // A new request from a shortcut opens its panel (state adjusted while rendering, not in an effect).
  const [seenRequest, setSeenRequest] = useState(request);
  if (request !== seenRequest) {
    setSeenRequest(request);
    if (request) setPanel(request.panel);
  }

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const list = Array.from(toolbarRef.current?.querySelectorAll<HTMLButtonElement>('[data-toolbar-item]') ?? []);
    const current = list.indexOf(event.target as HTMLButtonElement);
    const next = current < 0 ? null : nextIndex(event.key, current, list.length);
    if (next === null) return;
    event.preventDefault();
    setFocusIndex(next);
    list[next]?.focus();
  };
  const close = () => {
    const trigger = toolbarRef.current?.querySelector<HTMLButtonElement>('[aria-expanded="true"]');
    setPanel(null);
    if (trigger) trigger.focus();
    else actions.focusEditor();
  };
  const done = (act: () => void) => {
    act();
    setPanel(null);
  };

  return (
    <div className="editor-toolbar-wrap">
      <ToolbarFocusContext.Provider value={{ focusIndex, setFocusIndex, disabled }}>
        <div
          className="editor-toolbar study-toolbar"
          role="toolbar"
          aria-label="Study blocks"
          ref={toolbarRef}
          onKeyDown={onKeyDown}
        >
          {BUTTONS.map((button, index) => (
            <ToolbarButton
              key={button.label}
              index={index}
              label={button.label}
              pressed={button.pressed?.(state)}
              {...(button.panel
                ? {
                    expanded: panel === button.panel,
                    onPress: () => setPanel((open) => (open === button.panel ? null : button.panel!)),
                  }
                : { onPress: () => (actions[button.act!] as () => void)() })}
            >
              <span aria-hidden="true">{button.glyph}</span>
            </ToolbarButton>
          ))}
        </div>
      </ToolbarFocusContext.Provider>
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
    </div>
  );
}
