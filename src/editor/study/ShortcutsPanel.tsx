import { useEffect, useRef } from 'react';
import { EditorPanel } from '../toolbar/EditorPanel.tsx';
import { modKeyName, SHORTCUTS } from './shortcuts.ts';

/** The "?" panel: every keyboard shortcut of the editor. */
export function ShortcutsPanel({ onClose }: { onClose: () => void }) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), []);
  const mod = modKeyName(typeof navigator === 'undefined' ? '' : navigator.platform);
  return (
    <EditorPanel label="Keyboard shortcuts" onClose={onClose}>
      <h3 ref={headingRef} tabIndex={-1} className="panel-title">
        Keyboard shortcuts
      </h3>
      <dl className="shortcut-list">
        {SHORTCUTS.map(([what, keys]) => (
          <div key={what}>
            <dt>{what}</dt>
            <dd>
              <kbd>{keys.replaceAll('Mod', mod)}</kbd>
            </dd>
          </div>
        ))}
      </dl>
    </EditorPanel>
  );
}
