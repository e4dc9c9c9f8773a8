import { createContext, useContext, type ReactNode } from 'react';

/** The toolbar's single tab stop (WAI-ARIA toolbar pattern) and whether it is disabled. */
export interface ToolbarFocus {
  focusIndex: number;
  setFocusIndex: (index: number) => void;
  disabled: boolean;
}

export const ToolbarFocusContext = createContext<ToolbarFocus>({ focusIndex: 0, setFocusIndex: () => {}, disabled: false });

interface ToolbarButtonProps {
  /** The button's place in the toolbar, for the single tab stop. */
  index: number;
  label: string;
  children: ReactNode;
  onPress: () => void;
  pressed?: boolean;
  /** Set when the button opens a panel: whether that panel is open. */
  expanded?: boolean;
}

/**
 * One toolbar button. It keeps the editor's selection (mousedown does not take focus from the
 * text) and reports aria-pressed for toggles, aria-expanded for panels.
 */
export function ToolbarButton({ index, label, children, onPress, pressed, expanded }: ToolbarButtonProps) {
  const { focusIndex, setFocusIndex, disabled } = useContext(ToolbarFocusContext);
  return (
    <button
      type="button"
      data-toolbar-item
      className="tb-button"
      aria-label={label}
      title={label}
      aria-pressed={pressed}
      aria-haspopup={expanded === undefined ? undefined : 'true'}
      aria-expanded={expanded}
      tabIndex={index === focusIndex ? 0 : -1}
      disabled={disabled}
      onMouseDown={(event) => event.preventDefault()}
      onFocus={() => setFocusIndex(index)}
      onClick={onPress}
    >
      {children}
    </button>
  );
}
