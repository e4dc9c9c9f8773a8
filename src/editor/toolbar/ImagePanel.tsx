import { useEffect, useId, useRef, useState } from 'react';
import { closeOnEscape } from './close-on-escape.ts';

/** Picks an image and its alt text; the editor uploads it and inserts it at the cursor. */
export function ImagePanel({ onInsert, onClose }: { onInsert: (file: File, alt: string) => Promise<void>; onClose: () => void }) {
  const [file, setFile] = useState<File | null>(null);
  const [alt, setAlt] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  const id = useId();
  useEffect(() => fileRef.current?.focus(), []);

  const insert = async () => {
    if (!file) {
      setError('Please select an image file to upload.');
      fileRef.current?.focus();
      return;
    }
    if (!file.type.startsWith('image/')) {
      setError('Please choose an image file.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await onInsert(file, alt.trim());
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : 'The image could not be uploaded.');
      setBusy(false);
    }
  };

  return (
    <div className="editor-panel" role="group" aria-label="Insert image" aria-busy={busy} onKeyDown={closeOnEscape(onClose)}>
      <label htmlFor={`${id}-file`}>Image file</label>
      <input
        id={`${id}-file`}
        ref={fileRef}
        type="file"
        accept="image/*"
        disabled={busy}
        onChange={(event) => {
          const picked = event.target.files?.[0] ?? null;
          setFile(picked);
          setError(null);
          if (picked && alt === '')
            setAlt(
              picked.name
                .replace(/\.[a-z0-9]+$/i, '')
                .replace(/[-_]+/g, ' ')
                .trim(),
            );
        }}
      />
      <label htmlFor={`${id}-alt`}>Description (alt text)</label>
      <input
        id={`${id}-alt`}
        type="text"
        value={alt}
        disabled={busy}
        onChange={(event) => setAlt(event.target.value)}
        onKeyDown={(event) => {
          // Enter would otherwise submit the blog form around the editor.
          if (event.key === 'Enter') {
            event.preventDefault();
            void insert();
          }
        }}
      />
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      {busy && (
        <p className="field-help" role="status">
          Uploading image...
        </p>
      )}
      <div className="panel-actions">
        <button type="button" className="btn btn-primary" disabled={busy} onClick={() => void insert()}>
          Insert image
        </button>
        <button type="button" className="btn" disabled={busy} onClick={onClose}>
          Cancel
        </button>
      </div>
    </div>
  );
}
