import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { BACKGROUND_COLORS, TEXT_COLORS, type NamedColor } from './colors.ts';
import { normalizeTypedHref } from './safe-href.ts';
import type { ToolbarState } from './toolbar-state.ts';

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

type Panel = 'link' | 'image' | 'textColor' | 'bgColor' | null;

export const LINK_PROTOCOL_MESSAGE = 'Only http, https, mailto and tel links are allowed.';

/**
 * The formatting toolbar (WAI-ARIA toolbar pattern: one tab stop, arrow keys move between
 * buttons). Toggles report aria-pressed; link, image and colours open a small panel below.
 * Buttons keep the editor's selection: mousedown does not take focus from the text.
 */
export function EditorToolbar({ state, actions, disabled }: { state: ToolbarState; actions: ToolbarActions; disabled: boolean }) {
  const [panel, setPanel] = useState<Panel>(null);
  const [focusIndex, setFocusIndex] = useState(0);
  const toolbarRef = useRef<HTMLDivElement>(null);
  const triggers = useRef<Partial<Record<Exclude<Panel, null>, HTMLButtonElement | null>>>({});

  const items = () => Array.from(toolbarRef.current?.querySelectorAll<HTMLButtonElement>('[data-toolbar-item]') ?? []);

  const onToolbarKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const list = items();
    const current = list.indexOf(event.target as HTMLButtonElement);
    if (current < 0) return;
    let next: number;
    if (event.key === 'ArrowRight') next = (current + 1) % list.length;
    else if (event.key === 'ArrowLeft') next = (current - 1 + list.length) % list.length;
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = list.length - 1;
    else return;
    event.preventDefault();
    setFocusIndex(next);
    list[next]?.focus();
  };

  const closePanel = (returnFocusTo: 'trigger' | 'editor') => {
    const open = panel;
    setPanel(null);
    if (returnFocusTo === 'trigger' && open) triggers.current[open]?.focus();
    else actions.focusEditor();
  };

  const togglePanel = (name: Exclude<Panel, null>) => setPanel((open) => (open === name ? null : name));

  // myIndex is the button's place in the toolbar, for the single tab stop.
  const item = (
    myIndex: number,
    label: string,
    content: ReactNode,
    onPress: () => void,
    extra: { pressed?: boolean; panel?: Exclude<Panel, null> } = {},
  ) => {
    return (
      <button
        key={label}
        type="button"
        data-toolbar-item
        className="tb-button"
        aria-label={label}
        title={label}
        aria-pressed={extra.pressed === undefined ? undefined : extra.pressed}
        aria-haspopup={extra.panel ? 'true' : undefined}
        aria-expanded={extra.panel ? panel === extra.panel : undefined}
        tabIndex={myIndex === focusIndex ? 0 : -1}
        disabled={disabled}
        ref={extra.panel ? (el) => void (triggers.current[extra.panel!] = el) : undefined}
        onMouseDown={(event) => event.preventDefault()}
        onFocus={() => setFocusIndex(myIndex)}
        onClick={onPress}
      >
        {content}
      </button>
    );
  };

  return (
    <div className="editor-toolbar-wrap">
      <div className="editor-toolbar" role="toolbar" aria-label="Formatting" ref={toolbarRef} onKeyDown={onToolbarKeyDown}>
        <div className="tb-group">
          {[1, 2, 3].map((level) =>
            item(level - 1, `Heading ${level}`, `H${level}`, () => actions.heading(state.heading === level ? 0 : level), {
              pressed: state.heading === level,
            }),
          )}
        </div>
        <div className="tb-group">
          {item(3, 'Bold', <strong>B</strong>, actions.bold, { pressed: state.bold })}
          {item(4, 'Italic', <em>I</em>, actions.italic, { pressed: state.italic })}
          {item(5, 'Underline', <u>U</u>, actions.underline, { pressed: state.underline })}
        </div>
        <div className="tb-group">
          {item(6, 'Link', <LinkIcon />, () => togglePanel('link'), { pressed: state.link, panel: 'link' })}
          {item(7, 'Image', <ImageIcon />, () => togglePanel('image'), { panel: 'image' })}
        </div>
        <div className="tb-group">
          {item(
            8,
            'Text colour',
            <span className="tb-color-icon" aria-hidden="true" style={{ borderBottomColor: state.textColor ?? 'currentColor' }}>
              A
            </span>,
            () => togglePanel('textColor'),
            { pressed: state.textColor !== null, panel: 'textColor' },
          )}
          {item(
            9,
            'Background colour',
            <span className="tb-bg-icon" aria-hidden="true" style={{ background: state.bgColor ?? 'transparent' }}>
              A
            </span>,
            () => togglePanel('bgColor'),
            { pressed: state.bgColor !== null, panel: 'bgColor' },
          )}
        </div>
      </div>
      {panel === 'link' && (
        <LinkPanel
          current={state.href}
          inLink={state.link}
          onApply={(href) => {
            actions.setLink(href);
            setPanel(null);
          }}
          onRemove={() => {
            actions.removeLink();
            setPanel(null);
          }}
          onClose={() => closePanel('trigger')}
        />
      )}
      {panel === 'image' && (
        <ImagePanel
          onInsert={async (file, alt) => {
            await actions.insertImage(file, alt);
            setPanel(null);
          }}
          onClose={() => closePanel('trigger')}
        />
      )}
      {panel === 'textColor' && (
        <ColorPanel
          title="Text colour"
          colors={TEXT_COLORS}
          current={state.textColor}
          onPick={(color) => {
            actions.textColor(color);
            setPanel(null);
          }}
          onClose={() => closePanel('trigger')}
        />
      )}
      {panel === 'bgColor' && (
        <ColorPanel
          title="Background colour"
          colors={BACKGROUND_COLORS}
          current={state.bgColor}
          onPick={(color) => {
            actions.backgroundColor(color);
            setPanel(null);
          }}
          onClose={() => closePanel('trigger')}
        />
      )}
    </div>
  );
}

function LinkIcon() {
  return (
    <svg
      aria-hidden="true"
      focusable="false"
      width="18"
      height="18"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <path d="M10 13a5 5 0 0 0 7.5.5l3-3a5 5 0 0 0-7-7l-1.7 1.7" />
      <path d="M14 11a5 5 0 0 0-7.5-.5l-3 3a5 5 0 0 0 7 7l1.7-1.7" />
    </svg>
  );
}

function ImageIcon() {
  return (
    <svg
      aria-hidden="true"
      focusable="false"
      width="18"
      height="18"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <rect x="3" y="4" width="18" height="16" rx="2" />
      <circle cx="9" cy="10" r="2" />
      <path d="m21 16-5-5-9 9" />
    </svg>
  );
}

/** Escape closes a panel (and must not reach the page or the form). */
function closeOnEscape(onClose: () => void) {
  return (event: KeyboardEvent<HTMLElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      onClose();
    }
  };
}

function LinkPanel({
  current,
  inLink,
  onApply,
  onRemove,
  onClose,
}: {
  current: string;
  inLink: boolean;
  onApply: (href: string) => void;
  onRemove: () => void;
  onClose: () => void;
}) {
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

  // Not a <form>: the panel sits inside the blog form, and forms cannot nest.
  return (
    <div className="editor-panel" role="group" aria-label="Link" onKeyDown={closeOnEscape(onClose)}>
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
      <div className="panel-actions">
        <button type="button" className="btn btn-primary" onClick={submit}>
          Apply link
        </button>
        {inLink && (
          <button type="button" className="btn" onClick={onRemove}>
            Remove link
          </button>
        )}
        <button type="button" className="btn" onClick={onClose}>
          Cancel
        </button>
      </div>
    </div>
  );
}

function ImagePanel({ onInsert, onClose }: { onInsert: (file: File, alt: string) => Promise<void>; onClose: () => void }) {
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

function ColorPanel({
  title,
  colors,
  current,
  onPick,
  onClose,
}: {
  title: string;
  colors: NamedColor[];
  current: string | null;
  onPick: (color: string) => void;
  onClose: () => void;
}) {
  const firstRef = useRef<HTMLButtonElement>(null);
  const [custom, setCustom] = useState(current && /^#[0-9a-f]{6}$/i.test(current) ? current : '#000000');
  const id = useId();
  useEffect(() => firstRef.current?.focus(), []);
  return (
    <div className="editor-panel" role="group" aria-label={title} onKeyDown={closeOnEscape(onClose)}>
      <div className="swatches">
        {colors.map((color, i) => (
          <button
            key={color.value}
            ref={i === 0 ? firstRef : undefined}
            type="button"
            className="swatch"
            style={{ background: color.value }}
            aria-label={color.name}
            title={color.name}
            aria-pressed={current?.toLowerCase() === color.value}
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => onPick(color.value)}
          />
        ))}
      </div>
      <div className="custom-color">
        <label htmlFor={`${id}-custom`}>Custom colour</label>
        <input id={`${id}-custom`} type="color" value={custom} onChange={(event) => setCustom(event.target.value)} />
        <button type="button" className="btn" onClick={() => onPick(custom)}>
          Apply colour
        </button>
      </div>
      <div className="panel-actions">
        <button type="button" className="btn" onClick={() => onPick('')}>
          Remove colour
        </button>
        <button type="button" className="btn" onClick={onClose}>
          Cancel
        </button>
      </div>
    </div>
  );
}
