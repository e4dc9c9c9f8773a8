import { useState, type KeyboardEvent, type ReactNode, type RefObject } from 'react';
import { BACKGROUND_COLORS, TEXT_COLORS } from './colors.ts';
import type { ToolbarState } from './toolbar-state.ts';
import { ColorPanel } from './toolbar/ColorPanel.tsx';
import { FormatButtons, HeadingButtons } from './toolbar/FormatButtons.tsx';
import { ImageIcon, LinkIcon } from './toolbar/icons.tsx';
import { ImagePanel } from './toolbar/ImagePanel.tsx';
import { LinkPanel } from './toolbar/LinkPanel.tsx';
import { ToolbarButton, ToolbarFocusContext } from './toolbar/ToolbarButton.tsx';

export { LINK_PROTOCOL_MESSAGE } from './toolbar/LinkPanel.tsx';

export interface ToolbarActions {
  heading: (level: number) => void;
  bold: () => void;
  italic: () => void;
  underline: () => void;
  setLink: (href: string) => void;
  removeLink: () => void;
  /** Uploads the file and inserts it; rejects with a message the panel shows. */
  insertImage: (file: File, alt: string) => Promise<void>;
  textColor: (color: string) => void;
  backgroundColor: (color: string) => void;
  /** Puts the keyboard back into the text (after a panel closes without acting). */
  focusEditor: () => void;
}

type Panel = 'link' | 'image' | 'textColor' | 'bgColor';

/** Arrow keys, Home and End move between the toolbar's buttons. */
function nextIndex(key: string, current: number, count: number): number | null {
  if (key === 'ArrowRight') return (current + 1) % count;
  if (key === 'ArrowLeft') return (current - 1 + count) % count;
  if (key === 'Home') return 0;
  if (key === 'End') return count - 1;
  return null;
}

/**
 * The formatting toolbar (WAI-ARIA toolbar pattern: one tab stop, arrow keys move between
 * buttons). Toggles report aria-pressed; link, image and colours open a small panel below
 * (one file each under toolbar/).
 */
export function EditorToolbar({
  state,
  actions,
  disabled,
  extra,
  toolbarRef,
}: {
  state: ToolbarState;
  actions: ToolbarActions;
  disabled: boolean;
  /** More buttons after the ten formatting ones (docs/product.md#article-form) (the study blocks), sharing the single tab stop. */
  extra?: ReactNode;
  toolbarRef: RefObject<HTMLDivElement | null>;
}) {
  const [panel, setPanel] = useState<Panel | null>(null);
  const [focusIndex, setFocusIndex] = useState(0);

  const onToolbarKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const list = Array.from(toolbarRef.current?.querySelectorAll<HTMLButtonElement>('[data-toolbar-item]') ?? []);
    const current = list.indexOf(event.target as HTMLButtonElement);
    if (current < 0) return;
    const next = nextIndex(event.key, current, list.length);
    if (next === null) return;
    event.preventDefault();
    setFocusIndex(next);
    list[next]?.focus();
  };

  // Closing without acting returns the keyboard to the button that opened the panel (the expanded one).
  const closePanel = () => {
    const trigger = toolbarRef.current?.querySelector<HTMLButtonElement>(':not(.tb-study) > [aria-expanded="true"]');
    setPanel(null);
    if (trigger) trigger.focus();
    else actions.focusEditor();
  };
  const after = (act: () => void) => () => {
    act();
    setPanel(null);
  };
  const panelButton = (name: Panel) => ({
    expanded: panel === name,
    onPress: () => setPanel((open) => (open === name ? null : name)),
  });
  const colorPanels = {
    textColor: { title: 'Text colour', colors: TEXT_COLORS, current: state.textColor, pick: actions.textColor },
    bgColor: { title: 'Background colour', colors: BACKGROUND_COLORS, current: state.bgColor, pick: actions.backgroundColor },
  };

  return (
    <div className="editor-toolbar-wrap">
      <ToolbarFocusContext.Provider value={{ focusIndex, setFocusIndex, disabled }}>
        <div className="editor-toolbar" role="toolbar" aria-label="Formatting" ref={toolbarRef} onKeyDown={onToolbarKeyDown}>
          <HeadingButtons state={state} actions={actions} />
          <FormatButtons state={state} actions={actions} />
          <div className="tb-group">
            <ToolbarButton index={6} label="Link" pressed={state.link} {...panelButton('link')}>
              <LinkIcon />
            </ToolbarButton>
            <ToolbarButton index={7} label="Image" {...panelButton('image')}>
              <ImageIcon />
            </ToolbarButton>
          </div>
          <div className="tb-group">
            <ToolbarButton index={8} label="Text colour" pressed={state.textColor !== null} {...panelButton('textColor')}>
              <span className="tb-color-icon" aria-hidden="true" style={{ borderBottomColor: state.textColor ?? 'currentColor' }}>
                A
              </span>
            </ToolbarButton>
            <ToolbarButton index={9} label="Background colour" pressed={state.bgColor !== null} {...panelButton('bgColor')}>
              <span className="tb-bg-icon" aria-hidden="true" style={{ background: state.bgColor ?? 'transparent' }}>
                A
              </span>
            </ToolbarButton>
          </div>
          {extra}
        </div>
      </ToolbarFocusContext.Provider>
      {panel === 'link' && (
        <LinkPanel
          current={state.href}
          inLink={state.link}
          onApply={(href) => after(() => actions.setLink(href))()}
          onRemove={after(actions.removeLink)}
          onClose={closePanel}
        />
      )}
      {panel === 'image' && (
        <ImagePanel
          onInsert={async (file, alt) => {
            await actions.insertImage(file, alt);
            setPanel(null);
          }}
          onClose={closePanel}
        />
      )}
      {(panel === 'textColor' || panel === 'bgColor') && (
        // Keyed by the panel: switching colours opens a fresh panel, focused on its first swatch.
        <ColorPanel
          key={panel}
          title={colorPanels[panel].title}
          colors={colorPanels[panel].colors}
          current={colorPanels[panel].current}
          onPick={(color) => after(() => colorPanels[panel].pick(color))()}
          onClose={closePanel}
        />
      )}
    </div>
  );
}
