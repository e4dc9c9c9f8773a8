import { useEffect, useId, useRef, useState } from 'react';
import { CODE_LANGUAGES, isCodeLanguage } from '../../shared/study-blocks.ts';
import { EditorPanel } from '../toolbar/EditorPanel.tsx';

/** Picks the language of a new code block, or of the one at the cursor. */
export function CodePanel({
  current,
  onApply,
  onClose,
}: {
  current: string | null;
  onApply: (language: string) => void;
  onClose: () => void;
}) {
  const [language, setLanguage] = useState<string>(current !== null && isCodeLanguage(current) ? current : 'text');
  const selectRef = useRef<HTMLSelectElement>(null);
  const id = useId();
  useEffect(() => selectRef.current?.focus(), []);
  return (
    <EditorPanel
      label="Code block"
      onClose={onClose}
      actions={
        <button type="button" className="btn btn-primary" onClick={() => onApply(language)}>
          {current === null ? 'Insert code block' : 'Set language'}
        </button>
      }
    >
      <label htmlFor={`${id}-lang`}>Language</label>
      <select id={`${id}-lang`} ref={selectRef} value={language} onChange={(event) => setLanguage(event.target.value)}>
        {Object.entries(CODE_LANGUAGES).map(([value, name]) => (
          <option key={value} value={value}>
            {name}
          </option>
        ))}
      </select>
    </EditorPanel>
  );
}
