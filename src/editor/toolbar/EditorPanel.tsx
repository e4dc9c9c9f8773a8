import type { ReactNode } from 'react';
import { closeOnEscape } from './close-on-escape.ts';

interface EditorPanelProps {
  label: string;
  children: ReactNode;
  /** The panel's own buttons, before the Cancel every panel ends with. */
  actions?: ReactNode;
  onClose: () => void;
}

/**
 * The frame of a toolbar panel: a labelled group that Escape closes, its content, then its
 * actions and Cancel. Not a <form>: the panel sits inside the blog form, and forms cannot nest.
 */
export function EditorPanel({ label, children, actions, onClose }: EditorPanelProps) {
  return (
    <div className="editor-panel" role="group" aria-label={label} onKeyDown={closeOnEscape(onClose)}>
      {children}
      <div className="panel-actions">
        {actions}
        <button type="button" className="btn" onClick={onClose}>
          Cancel
        </button>
      </div>
    </div>
  );
}
