import { useEffect, useId, useRef, useState } from 'react';
import { normalizeTypedHref } from '../safe-href.ts';
import { EditorPanel } from './EditorPanel.tsx';

export const LINK_PROTOCOL_MESSAGE = 'Only http, https, mailto and tel links are allowed.';

interface LinkPanelProps {
  current: string;
  inLink: boolean;
  onApply: (href: string) => void;
  onRemove: () => void;
  onClose: () => void;
}

/** Sets, changes or removes the link on the selection; only safe protocols are taken. */
export function LinkPanel({ current, inLink, onApply, onRemove, onClose }: LinkPanelProps) {
  const [value, setValue] = useState(current);
  const [error, setError] = useState<string | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const id = useId();
  useEffect(() => inputRef.current?.focus(), []);

  const submit = (event: { preventDefault(): void; stopPropagation(): void }) => {
    event.preventDefault();
    event.stopPropagation();
    const href = normalizeTypedHref(value);
    if (href === '') {
      setError(value.trim() === '' ? 'Enter a link address.' : LINK_PROTOCOL_MESSAGE);
      inputRef.current?.focus();
      return;
    }
    onApply(href);
  };

  return (
    <EditorPanel
      label="Link"
      onClose={onClose}
      actions={
        <>
          <button type="button" className="btn btn-primary" onClick={submit}>
            Apply link
          </button>
          {inLink && (
            <button type="button" className="btn" onClick={onRemove}>
              Remove link
            </button>
          )}
        </>
      }
    >
      <label htmlFor={`${id}-href`}>Link address</label>
      <input
        id={`${id}-href`}
        ref={inputRef}
        type="text"
        inputMode="url"
        autoComplete="off"
        placeholder="https://…, mailto:… or tel:…"
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : `${id}-help`}
        onChange={(event) => {
          setValue(event.target.value);
          setError(null);
        }}
        onKeyDown={(event) => {
          if (event.key === 'Enter') submit(event);
        }}
      />
      {error ? (
        <p id={`${id}-error`} className="field-error" role="alert">
          {error}
        </p>
      ) : (
        <p id={`${id}-help`} className="field-help">
          {LINK_PROTOCOL_MESSAGE}
        </p>
      )}
    </EditorPanel>
  );
}
