import { useEffect, useId, useRef, useState } from 'react';
import { previewFormula } from '../study-nodes.ts';
import { EditorPanel } from '../toolbar/EditorPanel.tsx';

interface MathPanelProps {
  /** The selected formula's source, when editing one. */
  current: string | null;
  currentDisplay: boolean;
  onApply: (value: string, display: boolean) => void;
  onClose: () => void;
}

/**
 * Writes or edits a formula in TeX with a live preview. Invalid TeX is reported but can still be
 * inserted: the article saves, and readers see the source marked as an error until it is fixed.
 */
export function MathPanel({ current, currentDisplay, onApply, onClose }: MathPanelProps) {
  const [value, setValue] = useState(current ?? '');
  const [display, setDisplay] = useState(current === null ? false : currentDisplay);
  const [error, setError] = useState<string | null>(null);
  const previewRef = useRef<HTMLDivElement>(null);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const id = useId();
  useEffect(() => inputRef.current?.focus(), []);
  useEffect(() => {
    if (!previewRef.current) return;
    setError(value.trim() === '' ? null : previewFormula(previewRef.current, value, display));
    if (value.trim() === '') previewRef.current.textContent = 'The formula appears here as you type.';
  }, [value, display]);

  const apply = () => {
    if (value.trim() === '') {
      setError('Write a formula first, for example x^2 + 1.');
      inputRef.current?.focus();
      return;
    }
    onApply(value, display);
  };

  return (
    <EditorPanel
      label="Formula"
      onClose={onClose}
      actions={
        <button type="button" className="btn btn-primary" onClick={apply}>
          {current === null ? 'Insert formula' : 'Update formula'}
        </button>
      }
    >
      <label htmlFor={`${id}-tex`}>Formula (TeX)</label>
      <textarea
        id={`${id}-tex`}
        ref={inputRef}
        rows={3}
        spellCheck={false}
        value={value}
        placeholder="x = \frac{-b \pm \sqrt{b^2-4ac}}{2a}"
        aria-describedby={`${id}-preview ${id}-status`}
        aria-invalid={error ? true : undefined}
        onChange={(event) => setValue(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
            event.preventDefault();
            apply();
          }
        }}
      />
      <label className="check-label">
        <input type="checkbox" checked={display} onChange={(event) => setDisplay(event.target.checked)} /> On its own line
        (display)
      </label>
      <p className="field-help">Preview</p>
      <div id={`${id}-preview`} ref={previewRef} className="math-preview" aria-live="polite" />
      <p id={`${id}-status`} className={error ? 'field-error' : 'field-help'} role={error ? 'alert' : undefined}>
        {error
          ? `This formula has an error: ${error}. It can still be saved; readers see its source marked.`
          : 'Ctrl+Enter inserts.'}
      </p>
    </EditorPanel>
  );
}
