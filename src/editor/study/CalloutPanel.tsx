import { useEffect, useRef } from 'react';
import { CALLOUT_TITLES, type CalloutKind } from '../../shared/study-blocks.ts';
import { EditorPanel } from '../toolbar/EditorPanel.tsx';

/** Puts the current block in a callout box (Note, Tip, Warning, Remember, Worked example). */
export function CalloutPanel({
  current,
  onPick,
  onRemove,
  onClose,
}: {
  current: string | null;
  onPick: (kind: CalloutKind) => void;
  onRemove: () => void;
  onClose: () => void;
}) {
  const firstRef = useRef<HTMLButtonElement>(null);
  useEffect(() => firstRef.current?.focus(), []);
  return (
    <EditorPanel
      label="Callout"
      onClose={onClose}
      actions={
        current !== null && (
          <button type="button" className="btn" onClick={onRemove}>
            Remove callout
          </button>
        )
      }
    >
      <p className="field-help">Box the paragraph at the cursor as:</p>
      <div className="panel-choices">
        {(Object.entries(CALLOUT_TITLES) as [CalloutKind, string][]).map(([kind, title], i) => (
          <button
            key={kind}
            ref={i === 0 ? firstRef : undefined}
            type="button"
            className={`btn callout-choice callout-choice-${kind}`}
            aria-pressed={current === kind}
            onClick={() => onPick(kind)}
          >
            {title}
          </button>
        ))}
      </div>
    </EditorPanel>
  );
}
